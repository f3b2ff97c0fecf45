import Glibc
import OTCPromptCore
import OTCPromptLoop
import Testing

/// kitty's keyboard protocol through a scripted terminal: asked once keys are taken, on only once answered, off on
/// every way out, and no answer left for the shell.
@Suite struct KeyboardProtocolLoopTests {
    static let kitty = "\u{1B}[?0u\u{1B}[?62;22c"
    static let other = "\u{1B}[?62;22c"

    @Test func aTerminalThatAnswersGetsDisambiguatedKeysAndEscIsAtOnce() {
        let run = LoopRun(
            script: [.bytes(Self.kitty, after: .milliseconds(2)), .bytes("12"), .bytes("\u{1B}[27u")],
            escapeDelay: .milliseconds(300), asksKeyboardProtocol: true)
        #expect(run.outcome == .cancelled)
        let calls = run.terminal.calls.filter { $0 != "write" }
        #expect(calls == ["raw", "ask keyboard", "disambiguate", "no disambiguation", "restore"], "\(calls)")
        // The Esc key ended the prompt as it came: no wait was asked for after it.
        #expect(run.terminal.timeouts.count == 3)
    }

    @Test func aTerminalThatDoesNotAnswerIsNeverSwitched() {
        let run = LoopRun(
            script: [.bytes(Self.other, after: .milliseconds(2)), .bytes("985391")], asksKeyboardProtocol: true)
        #expect(run.outcome == .submitted("985391"))
        #expect(run.terminal.calls.filter { $0 != "write" } == ["raw", "ask keyboard", "restore"])
    }

    @Test func whereItMayNotBeAskedNothingIsAsked() {
        let run = LoopRun(script: [.bytes(Self.kitty), .bytes("985391")])
        #expect(run.terminal.calls.filter { $0 != "write" } == ["raw", "restore"])
    }

    /// A code typed ahead submits before the terminal has answered: the prompt waits for the last answer (here it
    /// comes 5 ms later) before it gives the terminal back, so the shell never reads it.
    @Test func aPromptEndingBeforeTheAnswersWaitsForThemBriefly() {
        let run = LoopRun(
            script: [.bytes("985391", after: .zero), .bytes(Self.kitty, after: .milliseconds(5))],
            asksKeyboardProtocol: true)
        #expect(run.outcome == .submitted("985391"))
        #expect(run.terminal.deliveredAt.count == 2, "the answers were read by the prompt")
        #expect(run.terminal.timeouts.last == .milliseconds(100), "at most twice the Esc wait after asking")
        #expect(!run.terminal.calls.contains("disambiguate"), "the prompt was over: nothing to switch")
    }

    @Test func aTerminalThatNeverAnswersCostsAtMostThePatience() {
        let run = LoopRun(script: [.bytes("985391", after: .zero), .timeout], asksKeyboardProtocol: true)
        #expect(run.outcome == .submitted("985391"))
        #expect(run.terminal.timeouts.last == .milliseconds(100))
    }

    /// A signal while the answers are awaited is not lost: the prompt ends as that signal.
    @Test func aSignalWhileAwaitingTheAnswersEndsThePromptAsThatSignal() {
        let run = LoopRun(script: [.bytes("985391", after: .zero), .signal(SIGTERM)], asksKeyboardProtocol: true)
        #expect(run.outcome == .signalled(SIGTERM))
        #expect(run.terminal.calls.last == "restore")
    }

    /// Ctrl-Z gives the terminal back as it was (mode off with the restore), and the mode is on again on return.
    @Test func ctrlZTurnsItOffAndTheReturnOnAgain() {
        let run = LoopRun(
            script: [.bytes(Self.kitty, after: .milliseconds(2)), .bytes("\u{1A}"), .bytes("985391")],
            asksKeyboardProtocol: true)
        #expect(run.outcome == .submitted("985391"))
        let calls = run.terminal.calls.filter { $0 != "write" }
        #expect(
            calls == [
                "raw", "ask keyboard", "disambiguate", "restore", "stop", "raw", "disambiguate", "no disambiguation",
                "restore",
            ], "\(calls)")
    }
}
