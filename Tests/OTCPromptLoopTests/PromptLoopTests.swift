import Glibc
import OTCPromptCore
import OTCPromptLoop
import Testing

@Suite("PromptLoop: keys, time and signals through a scripted terminal")
struct PromptLoopTests {
    @Test func aTypedCodeIsSubmittedAndTheTerminalLeftAsFound() {
        let run = LoopRun(script: [.bytes("985391")])
        #expect(run.outcome == .submitted("985391"))
        #expect(run.terminal.calls.first == "raw")
        #expect(run.terminal.calls.last == "restore")
        #expect(run.secretLocked)
        #expect(run.events.first == .prompt)
        #expect(run.events.last == .complete)
    }

    @Test func aLoneEscCancelsOnlyOnceTheEscDelayHasPassed() {
        let run = LoopRun(script: [.bytes("\u{1B}"), .timeout])
        #expect(run.outcome == .cancelled)
        // The wait after the Esc lasts exactly the Esc delay, and only then is it a key; then the prompt ends at
        // once, reading nothing more.
        #expect(run.terminal.timeouts == [nil, .milliseconds(50)])
        #expect(run.events.last == .cancel)
    }

    @Test func anEscapeSequenceCompletedWithinTheDelayIsNotACancel() {
        let run = LoopRun(script: [
            .bytes("\u{1B}", after: .milliseconds(100)), .bytes("[C", after: .milliseconds(10)), .bytes("985391"),
        ])
        #expect(run.outcome == .submitted("985391"))
        #expect(!run.events.contains(.cancel))
    }

    @Test func aPasteWhoseEndNeverComesIsClosedAfterTwoQuietSeconds() {
        let run = LoopRun(script: [.bytes("\u{1B}[200~98539"), .bytes("1", after: .seconds(1)), .timeout])
        // The second byte kept it open; two quiet seconds after it, the paste ends and counts.
        #expect(run.terminal.timeouts.last == PromptLoop<PromptSession>.unfinishedPasteLimit)
        #expect(run.outcome == .submitted("985391"))
        #expect(run.terminal.deliveredAt.last == run.terminal.deliveredAt[1] + .seconds(2))
    }

    @Test func aCheckThatAcceptsSubmitsTheCodeItWasGiven() {
        let run = LoopRun(
            PromptConfiguration(checksCode: true), check: CheckSettings(command: "verify", timeout: .seconds(5)),
            checks: [{ ScriptedCheck(clock: $0, decidesAfter: .milliseconds(100), .accepted) }],
            script: [.bytes("985391"), .checkReady(after: .milliseconds(100))])
        #expect(run.outcome == .submitted("985391"))
        #expect(run.checksStarted.map(\.command) == ["verify"])
        #expect(run.checksStarted.map(\.code) == ["985391"])
        #expect(!run.events.contains(.checking))
    }

    @Test func aSlowCheckIsAnnouncedAtHalfASecond() {
        let run = LoopRun(
            PromptConfiguration(checksCode: true), check: CheckSettings(command: "verify", timeout: .seconds(5)),
            checks: [{ ScriptedCheck(clock: $0, decidesAfter: .milliseconds(700), .accepted) }],
            script: [.bytes("985391"), .timeout, .checkReady(after: .milliseconds(200))])
        // Woken at 500 ms to say "checking", then waiting out the rest of the 5 s timeout.
        #expect(run.terminal.timeouts[1...] == [CheckSettings.slowAfter, .milliseconds(4500)])
        #expect(run.events.contains(.checking))
        #expect(run.outcome == .submitted("985391"))
    }

    @Test func aCheckPastItsTimeoutIsKilledAndCountsAsARejection() {
        var check: ScriptedCheck?
        let run = LoopRun(
            PromptConfiguration(checksCode: true, attempts: 1),
            check: CheckSettings(command: "verify", timeout: .seconds(1)),
            checks: [
                { clock in
                    check = ScriptedCheck(clock: clock, decidesAfter: .seconds(60), .accepted)
                    return check!
                }
            ],
            script: [.bytes("985391"), .timeout, .timeout])
        #expect(check?.killed == true)
        #expect(run.events.contains(.checkFailed))
        #expect(run.outcome == .rejected)
    }

    @Test func aRejectingCheckSaysItsFirstErrorLine() {
        let run = LoopRun(
            PromptConfiguration(checksCode: true, attempts: 1),
            check: CheckSettings(command: "verify", timeout: .seconds(5)),
            checks: [
                { ScriptedCheck(clock: $0, decidesAfter: .zero, .rejected(status: 1), errorLine: "token expired") }
            ],
            script: [.bytes("985391"), .checkReady()])
        #expect(run.outcome == .rejected)
        #expect(run.spoken.contains { $0.event == .checkFailed && $0.text.contains("token expired") })
    }

    @Test func aResizeRedrawsAndTerminateEndsWithTheSignalAndTheTerminalRestored() {
        let run = LoopRun(script: [.bytes("98"), .signal(SIGWINCH), .signal(SIGTERM)])
        #expect(run.outcome == .signalled(SIGTERM))
        #expect(run.terminal.calls.last == "restore")
        #expect(run.terminal.written.contains("98"))
    }

    @Test func ctrlZStopsWithTheTerminalRestoredThenTakesItBackAndAnnouncesAgain() {
        let run = LoopRun(script: [.bytes("98"), .bytes("\u{1A}"), .signal(SIGCONT), .bytes("5391")])
        #expect(run.outcome == .submitted("985391"))
        let calls = run.terminal.calls.filter { $0 != "write" }
        // Raw mode, then the stop (restore, stop, raw again); its own SIGCONT changes nothing.
        #expect(calls == ["raw", "restore", "stop", "raw", "restore"])
        #expect(run.events.filter { $0 == .prompt }.count == 2)
    }

    @Test func continuedAfterSomeoneElsesStopTheTerminalIsSetUpAgain() {
        let run = LoopRun(script: [.bytes("98"), .signal(SIGCONT), .bytes("5391")])
        #expect(run.outcome == .submitted("985391"))
        // Raw mode set again from what the terminal is now, never restored in between (no moment of echo).
        #expect(run.terminal.calls.filter { $0 != "write" } == ["raw", "reassert", "raw", "restore"])
        #expect(run.events.filter { $0 == .prompt }.count == 2)
    }

    @Test func aClosedTerminalEndsThePrompt() {
        let run = LoopRun(script: [.bytes("98")])
        #expect(run.outcome == .terminalClosed)
        #expect(run.terminal.calls.last == "restore")
    }
}
