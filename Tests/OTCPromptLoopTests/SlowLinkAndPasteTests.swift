import OTCPromptCore
import OTCPromptLoop
import Testing

/// In the loop: a key split by a slow link, and a paste with no markers.
@Suite struct SlowLinkAndPasteTests {
    @Test func aKeySplitNearTheDelayMakesTheDelayGrowSoTheNextSplitIsNoCancel() {
        let run = LoopRun(script: [
            .bytes("\u{1B}", after: .milliseconds(100)), .bytes("[A", after: .milliseconds(40)),
            .bytes("\u{1B}", after: .milliseconds(100)), .bytes("[B", after: .milliseconds(70)),
            .bytes("985391"),
        ])
        #expect(run.outcome == .submitted("985391"))
        #expect(!run.events.contains(.cancel))
        // The first gap (40 ms) set the delay to 80 ms, which the second wait used.
        #expect(run.terminal.timeouts[3] == .milliseconds(80))
    }

    @Test func theDelayGrowsNoFurtherThanItsLimit() {
        let run = LoopRun(
            script: [
                .bytes("\u{1B}", after: .milliseconds(100)), .bytes("[A", after: .milliseconds(900)), .bytes("\u{1B}"),
            ],
            escapeDelay: .seconds(1))
        #expect(run.terminal.timeouts.last == .seconds(1))
    }

    /// Once the wait has passed the Esc is decided, and the prompt ends at once: nothing more is read, and what
    /// was typed meanwhile goes with the restore, in one step, so that what follows is the shell's.
    @Test(arguments: [Duration.milliseconds(60), .milliseconds(400)])
    func aLoneEscEndsThePromptAtOnceLeavingWhatFollowsForTheShell(commandAfter: Duration) {
        let run = LoopRun(script: [
            .bytes("\u{1B}", after: .milliseconds(100)), .timeout, .bytes("echo hi\r", after: commandAfter),
        ])
        #expect(run.outcome == .cancelled)
        #expect(run.terminal.timeouts.count == 2, "read after the Esc was decided: \(run.terminal.timeouts)")
        #expect(run.terminal.timeouts.last == .milliseconds(50))
        #expect(run.terminal.calls.last == "restore")
        #expect(run.terminal.restoresDiscardingInput == 1)
    }

    /// A person's Esc, then their next key read apart from it within the wait: no Alt key keeps the prompt open;
    /// the Esc cancels the moment the key arrives, without waiting the rest of the delay, and that key and what came
    /// with it go back to the terminal for the shell, as typed. A second Esc was the same cancel, not the shell's.
    @Test(arguments: [("e", "e"), ("echo hi\r", "echo hi\r"), ("1", "1"), ("\u{1B}", ""), ("\u{1B}[A", "\u{1B}[A")])
    func anEscThenAKeyReadApartCancelsAtOnce(next: String, givenBack: String) {
        let run = LoopRun(
            script: [.bytes("\u{1B}", after: .milliseconds(100)), .bytes(next, after: .milliseconds(20))],
            escapeDelay: .milliseconds(300))
        #expect(run.outcome == .cancelled)
        #expect(run.terminal.deliveredAt.last! - run.terminal.deliveredAt.first! == .milliseconds(20))
        #expect(run.terminal.calls.last == "restore")
        #expect(run.terminal.restoresDiscardingInput == 1)
        #expect(run.terminal.givenBack == (givenBack.isEmpty ? [] : [Array(givenBack.utf8)]))
    }

    /// tmux's `escape-time` writes an Esc and the key typed within it as one Alt key, and a link may write Esc and a
    /// whole command at once: the Esc cancels at once, and the key typed after it and everything after that are
    /// the shell's, given back in order; what came before the Esc is the prompt's.
    /// In a secret's field nothing after the Esc is given back: it may be the rest of the secret, typed after an Alt
    /// key pressed by mistake on a keyboard that sends Alt as Esc, which the shell would echo and run.
    @Test func aSecretsFieldGivesNothingAfterTheEscBack() {
        let run = LoopRun(
            PromptConfiguration(mask: true), script: [.bytes("hunt\u{1B}er2\r"), .bytes("985391")],
            escapeDelay: .milliseconds(300))
        #expect(run.outcome == .cancelled)
        #expect(run.terminal.givenBack.isEmpty)
        #expect(run.terminal.restoresDiscardingInput == 1)
    }

    @Test(arguments: ["\u{1B}echo hi\r", "12\u{1B}echo hi\r", "\u{1B}e"])
    func anEscAndTheNextKeysInOneReadCancelAndGoBackToTheShell(read: String) {
        let run = LoopRun(script: [.bytes(read), .bytes("985391")], escapeDelay: .milliseconds(300))
        #expect(run.outcome == .cancelled)
        #expect(run.terminal.timeouts.count == 1, "read again after the Esc: \(run.terminal.timeouts)")
        let after = read[read.index(after: read.firstIndex(of: "\u{1B}")!)...]
        #expect(run.terminal.givenBack == [Array(after.utf8)])
    }

    /// Arrows, Home, End and function keys, each written whole: never a cancel.
    @Test(arguments: ["\u{1B}[A", "\u{1B}[H", "\u{1B}[F", "\u{1B}OP", "\u{1B}[15~"])
    func aKeyWrittenWholeWithItsEscIsNoCancel(key: String) {
        let run = LoopRun(script: [.bytes(key), .bytes("985391")])
        #expect(run.outcome == .submitted("985391"))
        #expect(!run.events.contains(.cancel))
    }

    @Test func onADumbTerminalAnSMSInOneReadIsAPasteThatWaitsForEnter() {
        let sms = "Your 2FA code is 123456. Do not share it."
        let waiting = LoopRun(script: [.bytes(sms), .timeout], dumbTerminal: true)
        #expect(waiting.outcome == .terminalClosed)
        #expect(waiting.events.last == .paste)
        let confirmed = LoopRun(script: [.bytes(sms), .bytes("\r")], dumbTerminal: true)
        #expect(confirmed.outcome == .submitted("123456"))
    }

    /// A paste a link split across reads, 5 ms apart: one paste, one announcement, and Enter submits it.
    @Test(arguments: [
        ["Your 2FA code is 12", "3456. Do not share it."],
        ["Your 2FA code is 123456. Do not share it", "."],
        ["Your 2FA", " code is 12", "34", "5", "6. Do not ", "share it."],
    ])
    func onADumbTerminalAPasteSplitAcrossReadsIsOnePaste(pieces: [String]) {
        let reads = pieces.map { ScriptedTerminal.Step.bytes($0, after: .milliseconds(5)) }
        let run = LoopRun(script: reads + [.timeout, .bytes("\r", after: .milliseconds(400))], dumbTerminal: true)
        #expect(run.outcome == .submitted("123456"))
        #expect(run.events.filter { $0 == .paste }.count == 1)
    }

    @Test func onADumbTerminalAPasteSplitInsideACharacterKeepsTheCharacter() {
        let sms = Array("Seu código é 654321. Não compartilhe.".utf8)
        let inside = sms.firstIndex(of: 0xC3)! + 1
        let reads = [Array(sms[..<inside]), Array(sms[inside...])].map {
            ScriptedTerminal.Step(input: .bytes($0), after: .milliseconds(5))
        }
        let run = LoopRun(
            PromptConfiguration(language: .ptBR), script: reads + [.timeout, .bytes("\r", after: .milliseconds(400))],
            dumbTerminal: true)
        #expect(run.outcome == .submitted("654321"))
        #expect(run.events.filter { $0 == .paste }.count == 1)
        #expect(!run.events.contains(.unreadable))
    }

    /// The paste's own line break, split off into a read of its own, is text, never Enter.
    @Test func onADumbTerminalTheLastLineBreakOfASplitPasteSubmitsNothing() {
        let run = LoopRun(
            script: [.bytes("123456", after: .milliseconds(5)), .bytes("\n", after: .milliseconds(5)), .timeout],
            dumbTerminal: true)
        #expect(run.outcome == .terminalClosed)
        #expect(run.events.last == .paste)
        // The loop waited for the rest no longer than the quiet window.
        #expect(run.terminal.timeouts.dropLast().last == UnmarkedPasteJoin.window)
    }

    @Test func onADumbTerminalAOneKeyReadAfterTheQuietWindowIsTyping() {
        let run = LoopRun(
            script: [.bytes("123", after: .milliseconds(5)), .timeout]
                + "456".map { .bytes(String($0), after: .milliseconds(150)) },
            dumbTerminal: true)
        #expect(run.outcome == .submitted("123456"))
    }

    @Test func onADumbTerminalOneKeyPerReadIsTypingAndAutoSubmits() {
        let run = LoopRun(script: "985391".map { .bytes(String($0), after: .milliseconds(30)) }, dumbTerminal: true)
        #expect(run.outcome == .submitted("985391"))
    }

    @Test func withBracketedPasteOnABurstIsTyping() {
        let run = LoopRun(script: [.bytes("985391")])
        #expect(run.outcome == .submitted("985391"))
    }
}
