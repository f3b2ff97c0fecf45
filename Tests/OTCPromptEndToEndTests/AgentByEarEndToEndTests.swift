import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// The agent by ear, against the real systemd-ask-password (root only; its directory private
/// as in `AgentSystemdEndToEndTests`): a request after a quiet wait is cued by the terminal's bell, then says what is asked and how to answer in its first sentence, its details after; systemd's usual
/// 90 s is not said, nor the colon its message ends in; a disk's name is said as a name.
extension AgentSystemdEndToEndTests {
    typealias Run = (run: PromptRun, trace: SpeechTraceFile)

    /// An agent on the system directory speaking through a private PulseAudio, once its wait has gone quiet (its
    /// voice let go, the agent renewed).
    func quietAgent(_ options: [String] = [], pulse: PrivatePulseAudio) async throws -> Run {
        let trace = SpeechTraceFile()
        let run = try await PrivateAskPassword.agent(
            options,
            environment: PromptRun.environment(["PULSE_SERVER": pulse.server, "OTC_PROMPT_TRACE": trace.path]),
            speech: "espeak")
        #expect(
            await run.process.wait(deadline: .seconds(30)) { _ in trace.events.contains("renewed") },
            "never renewed: \(trace.events)")
        return (run, trace)
    }

    /// Esc for `querier`'s request, then the agent ended.
    func cancel(_ querier: Querier, at run: PromptRun) async {
        await run.waitPastTheGrace()
        run.type([0x1B])
        #expect(await querier.result() != nil)
        run.process.sendSignal(SIGTERM)
        _ = await run.exit()
    }

    /// The opening of the request whose message holds `text`.
    func opening(_ run: PromptRun, _ text: String) async -> LogEntry? {
        _ = await run.process.wait(deadline: .seconds(20)) { _ in
            run.log.contains { $0.event == "prompt" && $0.text.contains(text) }
        }
        return run.log.last { $0.event == "prompt" && $0.text.contains(text) }
    }

    @Test(.enabled(if: PrivatePulseAudio.isInstalled, "needs pulseaudio (make deps)"))
    func aRequestAfterTheQuietWaitIsCuedByAToneThenAsksTheQuestionFirst() async throws {
        let pulse = try #require(PrivatePulseAudio.start(), "PulseAudio is installed but did not start")
        defer { pulse.stop() }
        let (run, trace) = try await quietAgent(pulse: pulse)
        defer { trace.remove() }
        let querier = try Querier(
            "Please enter passphrase for disk sda2_crypt:", options: ["--id=cryptsetup:/dev/sda2"], namespaceOf: run)
        let said = try #require(await opening(run, "disk sda2"), "\(run.log)")
        // systemd's own words, said as what they ask, the volume by its device as the boot prompt names it: the disk
        // is in the question, not said again after it.
        let lead = "Passphrase for disk sda2. Type it, then Enter."
        #expect(said.lead == lead, "\(said)")
        // The question itself is the news, cued by a tone: no word before it.
        #expect(said.text.hasPrefix(lead), "\(said.text)")
        #expect(run.process.screenBytesSoFar.contains(0x07), "no bell")
        #expect(!said.text.contains("For disk sda2."), "the disk said twice: \(said.text)")
        #expect(!said.text.contains(" left"), "systemd's usual 90 s is no news: \(said.text)")
        #expect(!said.text.contains(":.") && !said.text.contains(":,"), "the message's colon said: \(said.text)")
        await run.waitPastTheGrace()
        run.type("correct horse\r")
        #expect(await querier.result()?.output == "correct horse\n")
        // A request right after the answer follows no quiet wait: no cue.
        let next = try Querier("Passphrase for backup", namespaceOf: run)
        let second = try #require(await opening(run, "Passphrase for backup"), "\(run.log)")
        #expect(second.text.hasPrefix("Passphrase for backup. Type it, then Enter."), "\(second.text)")
        await cancel(next, at: run)
    }

    /// Terse too: the terminal's bell cues the request, just before it is drawn.
    @Test(.enabled(if: PrivatePulseAudio.isInstalled, "needs pulseaudio (make deps)"))
    func aTerseAgentCuesARequestAfterTheQuietWaitWithTheBell() async throws {
        let pulse = try #require(PrivatePulseAudio.start(), "PulseAudio is installed but did not start")
        defer { pulse.stop() }
        let (run, trace) = try await quietAgent(["--verbosity", "terse"], pulse: pulse)
        defer { trace.remove() }
        let querier = try Querier("Passphrase for backup", namespaceOf: run)
        let said = try #require(await opening(run, "Passphrase for backup"), "\(run.log)")
        #expect(said.text.hasPrefix("Passphrase for backup. Type it, then Enter."), "\(said.text)")
        let screen = run.process.screenBytesSoFar
        let bell = try #require(screen.lastIndex(of: 0x07), "no bell")
        let question = try #require(
            String(decoding: screen, as: UTF8.self).range(of: "Passphrase for backup"), "not drawn")
        #expect(
            bell < screen.count - String(decoding: screen, as: UTF8.self)[question.lowerBound...].utf8.count,
            "the bell comes before the question")
        await cancel(querier, at: run)
    }

    /// With speech off nothing renews the wait; a request after a wait of `cueAfterWaiting` (5 s) is cued by the bell.
    @Test func withSpeechOffARequestAfterALongWaitIsCuedWithTheBell() async throws {
        let run = try await PrivateAskPassword.agent()
        // The program's own rule, not a wait for an event: a request within 5 s of the wait follows it closely.
        usleep(5_500_000)
        let querier = try Querier("Passphrase for backup", namespaceOf: run)
        #expect(await run.process.waitForScreen(containing: "Passphrase for backup", deadline: .seconds(20)))
        #expect(run.process.screenBytesSoFar.contains(0x07), "no bell")
        let said = try #require(await opening(run, "Passphrase for backup"))
        #expect(said.text.hasPrefix("Passphrase for backup."), "the question comes first: \(said.text)")
        await cancel(querier, at: run)
    }
}
