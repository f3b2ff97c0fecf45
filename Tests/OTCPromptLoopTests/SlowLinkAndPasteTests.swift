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

    @Test(arguments: [Duration.milliseconds(60), .milliseconds(400), .milliseconds(900)])
    func aLoneEscThatEndedThePromptTakesTheLateRestOfItsKeyWithIt(lateBy: Duration) {
        let run = LoopRun(script: [
            .bytes("\u{1B}", after: .milliseconds(100)), .timeout,
            .bytes("[A", after: lateBy), .bytes("3456", after: .milliseconds(100)), .timeout,
        ])
        #expect(run.outcome == .cancelled)
        // Every scripted byte was read (and dropped) before the terminal was restored.
        #expect(run.terminal.timeouts.count == 5)
        #expect(run.terminal.calls.last == "restore")
    }

    @Test func theLateInputWaitHasALimit() {
        let slowTrickle = (0..<40).map { _ in ScriptedTerminal.Step.bytes("x", after: .milliseconds(400)) }
        let run = LoopRun(script: [.bytes("\u{1B}"), .timeout] + slowTrickle)
        #expect(run.outcome == .cancelled)
        let afterEsc = run.terminal.deliveredAt[1]
        #expect(
            run.terminal.deliveredAt.last! - afterEsc <= PromptLoop<PromptSession>.lateInputLimit + .milliseconds(400))
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
