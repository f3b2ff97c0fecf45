import OTCPromptTestSupport
import Testing

/// `--agent --speech espeak` on a PulseAudio of the test's own, its speech threads' events traced (`OTC_PROMPT_TRACE`),
/// terse so that its wait is heard, and its voice let go, sooner: the agent as it renews itself.
enum VoicedAgent {
    /// Runs `body` with the agent watching `directory` (through `launcher`, when one is given: `PrivateAskPassword`)
    /// once it shows its wait; its server and trace are removed after.
    static func run(
        in directory: String, launcher: [String] = [], extra: [String] = [],
        _ body: (PromptRun, SpeechTraceFile) async throws -> Void
    ) async throws {
        let pulse = try #require(PrivatePulseAudio.start(), "PulseAudio is installed but did not start")
        defer { pulse.stop() }
        let trace = SpeechTraceFile()
        defer { trace.remove() }
        let run = try await PromptRun(
            ["--agent", "--verbosity", "terse", "--agent-directory", directory] + extra,
            environment: PromptRun.environment(["PULSE_SERVER": pulse.server, "OTC_PROMPT_TRACE": trace.path]),
            speech: "espeak", ready: "Waiting for password requests", launcher: launcher)
        try await body(run, trace)
    }

    /// Waits until the agent has renewed itself `count` times in all.
    static func renewed(
        _ run: PromptRun, _ trace: SpeechTraceFile, count: Int = 1, deadline: Duration = .seconds(20)
    ) async -> Bool {
        await run.process.wait(deadline: deadline) { _ in trace.events.filter { $0 == "renewed" }.count >= count }
    }
}
