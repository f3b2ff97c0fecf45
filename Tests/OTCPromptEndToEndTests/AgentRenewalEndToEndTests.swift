import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// What reaches the password agent while it renews itself (the voice let go, the program executed again): a signal
/// ends it as that signal, a resize or a continue ends nothing, a key is never echoed. Each is sent across the
/// whole renewal, from the moment its voice is let go (the trace's `released`) until the new image runs (`renewed`),
/// watched closely (the harness's usual look every 10 ms would step over most of it).
@Suite(.runsPrograms)
struct AgentRenewalEndToEndTests {
    let directory = AgentQuerier.directory()

    /// The agent with espeak-ng on a PulseAudio of the test's own, terse, so that its wait is said, and its voice
    /// let go, sooner: `body` is given it the moment its voice has been let go (the trace's `released`).
    private func whenItRenews(_ body: (PromptRun, SpeechTraceFile) async throws -> Void) async throws {
        let pulse = try #require(PrivatePulseAudio.start(), "PulseAudio is installed but did not start")
        defer { pulse.stop() }
        let trace = SpeechTraceFile()
        defer { trace.remove() }
        let run = try await PromptRun(
            ["--agent", "--verbosity", "terse", "--agent-directory", directory],
            environment: PromptRun.environment(["PULSE_SERVER": pulse.server, "OTC_PROMPT_TRACE": trace.path]),
            speech: "espeak", ready: "Waiting for password requests")
        #expect(await Self.waitClosely(for: "released", in: trace))
        try await body(run, trace)
    }

    @Test(
        .enabled(if: PrivatePulseAudio.isInstalled, "needs pulseaudio, parec and sox (make deps)"),
        .timeLimit(.minutes(5)))
    func aResizeAChildOrAContinueWhileItRenewsEndsNothingAndAKeyIsNeverEchoed() async throws {
        try await whenItRenews { run, trace in
            // Every millisecond until the new image runs, and a little past it.
            var sent = 0
            while !trace.events.contains("renewed") || sent < 5, sent < 200 {
                run.process.sendSignal([SIGWINCH, SIGCHLD, SIGCONT][sent % 3])
                _ = run.process.type([0x78])  // "x"
                sent += 1
                try? await Task.sleep(for: .milliseconds(1))
            }
            #expect(await run.process.wait(deadline: .seconds(20)) { _ in trace.events.contains("renewed") })
            #expect(!run.process.hasExited, "ended by a resize, a child's end or a continue")
            #expect(!visibleText(run.process.screen).contains("x"), "a key was echoed: \(run.process.screen)")
            // And it still answers.
            let querier = try AgentQuerier(
                in: directory, lines: ["PID=\(getpid())", "Echo=0", "Message=After the storm"])
            #expect(await run.process.waitForScreen(containing: "After the storm", deadline: .seconds(20)))
            await run.waitPastTheGrace()
            run.type("calm\r")
            #expect(await querier.answer() == "+calm")
            run.process.sendSignal(SIGTERM)
            #expect(await run.exit() == .signaled(SIGTERM))
            #expect(run.terminalRestored)
        }
    }

    /// SIGTERM at several moments of the renewal: each time the agent ends as SIGTERM, its terminal restored; none is
    /// lost with the old image's signal pipe.
    @Test(
        .enabled(if: PrivatePulseAudio.isInstalled, "needs pulseaudio, parec and sox (make deps)"),
        .timeLimit(.minutes(5)), arguments: [0, 4_000, 10_000])
    func aTerminatingSignalWhileItRenewsEndsIt(afterMicroseconds delay: UInt32) async throws {
        try await whenItRenews { run, trace in
            try? await Task.sleep(for: .microseconds(delay))
            run.process.sendSignal(SIGTERM)
            #expect(await run.exit(deadline: .seconds(20)) == .signaled(SIGTERM), "trace: \(trace.events)")
            #expect(run.terminalRestored)
        }
    }

    /// Looks at the trace every 200 µs or so, for at most 20 s, until it holds `event`.
    private static func waitClosely(for event: String, in trace: SpeechTraceFile) async -> Bool {
        let end = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < end {
            if trace.events.contains(event) { return true }
            try? await Task.sleep(for: .microseconds(200))
        }
        return false
    }
}
