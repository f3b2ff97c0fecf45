import OTCPromptCore
import OTCPromptLoop
import Testing

/// Issue 14 points 2 and 3 in the loop: a key split by a slow link, and a paste with no markers.
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
        let waiting = LoopRun(script: [.bytes(sms)], dumbTerminal: true)
        #expect(waiting.outcome == .terminalClosed)
        #expect(waiting.events.last == .paste)
        let confirmed = LoopRun(script: [.bytes(sms), .bytes("\r")], dumbTerminal: true)
        #expect(confirmed.outcome == .submitted("123456"))
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
