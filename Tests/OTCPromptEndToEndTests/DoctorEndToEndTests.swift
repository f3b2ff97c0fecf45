import Foundation
import OTCPromptTestSupport
import Testing

/// `--doctor` with a voice (a private PulseAudio): the whole report on stdout, its summary said with an offer, the
/// rest on Enter; Escape ends it at once, never waiting behind the 20-35 s the whole report took to say.
@Suite(.runsPrograms, .enabled(if: PrivatePulseAudio.isInstalled, "needs pulseaudio (make deps)"))
struct DoctorEndToEndTests {
    /// The speech log's announcements as JSON objects (not the lines saying how each was heard).
    static func entries(_ path: String) -> [[String: Any]] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.filter { $0["of"] == nil }
    }

    func doctor(keys: [[UInt8]], pulse: PrivatePulseAudio) async throws -> (
        report: String, said: [[String: Any]], status: OTCPromptTestSupport.ExitStatus?
    ) {
        let log = PromptRun.privateDirectory() + "/speech.jsonl"
        let process = try PseudoTerminalProcess(
            executable: PromptRun.binary, arguments: ["--doctor", "--speech", "espeak", "--speech-log", log],
            environment: PromptRun.environment(pulse.clientEnvironment))
        #expect(
            await process.wait(deadline: .seconds(20)) { _ in
                Self.entries(log).contains { $0["event"] as? String == "prompt" }
            }, "the summary was never said: \(process.screen)")
        await process.waitPastTheGrace()
        for key in keys {
            let count = Self.entries(log).count
            process.type(key)
            _ = await process.wait(deadline: .seconds(10)) { _ in Self.entries(log).count > count }
        }
        let status = await process.waitForExit(deadline: .seconds(10))
        return (process.standardOutput, Self.entries(log), status)
    }

    @Test func theSummaryIsSaidAndEscapeEndsItAtOnce() async throws {
        let pulse = try #require(PrivatePulseAudio.start(), "PulseAudio is installed but did not start")
        defer { pulse.stop() }
        let run = try await doctor(keys: [[0x1B]], pulse: pulse)
        #expect(run.status == .exited(0))
        #expect(run.report.hasPrefix("Speech: espeak, because"), "the whole report is printed: \(run.report)")
        #expect(run.report.contains("Audio device: espeak-ng can play on it."))
        let events = run.said.compactMap { $0["event"] as? String }
        #expect(events == ["prompt", "cancel"], "\(run.said)")
        let lead = run.said.first?["lead"] as? String ?? ""
        #expect(
            lead.hasPrefix("Speech: espeak, because") && lead.hasSuffix("Enter says the whole report; Escape ends."))
        #expect(!lead.contains("Audio device"), "only the summary is said first")
    }

    @Test func enterSaysTheRestAndTheNextEnterEnds() async throws {
        let pulse = try #require(PrivatePulseAudio.start(), "PulseAudio is installed but did not start")
        defer { pulse.stop() }
        let run = try await doctor(keys: [[13], [13]], pulse: pulse)
        #expect(run.status == .exited(0))
        #expect(run.said.compactMap { $0["event"] as? String } == ["prompt", "readback", "confirm"], "\(run.said)")
        let rest = run.said.dropFirst().first?["text"] as? String ?? ""
        #expect(rest.hasPrefix("Where you are:") && rest.contains("Audio device: espeak-ng can play on it."), "\(rest)")
        #expect(!run.report.contains("yes"), "nothing but the report on stdout")
    }
}
