import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// `--agent --speech espeak` through a PulseAudio of the test's own: the agent waits all day, so once its wait has
/// been said it lets its voice go (the stream closed, the writer thread gone) and no thread of it wakes; the next
/// request opens the voice again and is spoken. The speech threads' events come from `OTC_PROMPT_TRACE`.
@Suite(.runsPrograms, .serialized)
struct AgentIdleEndToEndTests {
    @Test(.enabled(if: PrivatePulseAudio.isInstalled, "needs pulseaudio, parec and sox (make deps)"))
    func anIdleAgentWakesNoThreadAndTheNextRequestIsStillSpoken() async throws {
        let pulse = try #require(PrivatePulseAudio.start(), "PulseAudio is installed but did not start")
        defer { pulse.stop() }
        let trace = NSTemporaryDirectory() + "/otc-e2e-trace-\(UUID().uuidString)"
        defer { unlink(trace) }
        let directory = AgentQuerier.directory()
        let run = try await PromptRun(
            ["--agent", "--agent-directory", directory],
            environment: PromptRun.environment(["PULSE_SERVER": pulse.server, "OTC_PROMPT_TRACE": trace]),
            speech: "espeak", ready: "Waiting for password requests")
        let pid = run.process.processID
        #expect(
            await run.process.wait(deadline: .seconds(20)) { _ in Self.events(trace).contains { $0 == "released" } })

        let before = Self.contextSwitches(of: pid)
        // The interval measured, not a wait for an event: nothing is expected to happen in it. Longer than the
        // slowest periodic wake seen before (libpulse's timing update on an open stream, every 1.5 s).
        usleep(2_000_000)  // measured interval
        let after = Self.contextSwitches(of: pid)
        #expect(!before.isEmpty)
        #expect(after == before, "threads that woke while idle: \(Self.woken(before, after))")

        let querier = try AgentQuerier(
            in: directory, lines: ["PID=\(getpid())", "Echo=0", "Message=Passphrase after the silence"])
        #expect(await run.process.waitForScreen(containing: "Passphrase after the silence", deadline: .seconds(20)))
        // The request's announcement reached the device: a stream opened again, and a first sample handed to it.
        #expect(
            await run.process.wait(deadline: .seconds(20)) { _ in
                let events = Self.events(trace)
                guard let released = events.firstIndex(of: "released") else { return false }
                return events[released...].contains("device") && events[released...].contains("sample")
            }, "trace: \(Self.events(trace))")
        await run.waitPastTheGrace()
        run.type("quiet horse\r")
        #expect(await querier.answer() == "+quiet horse")
        run.process.sendSignal(SIGTERM)
        #expect(await run.exit() == .signaled(SIGTERM))
        #expect(run.terminalRestored)
    }

    /// The trace's event names, in order (`EVENT GENERATION NANOSECONDS` lines).
    private static func events(_ path: String) -> [String] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// Voluntary and involuntary context switches of each thread of `pid`, by thread id.
    private static func contextSwitches(of pid: pid_t) -> [String: Int] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var switches: [String: Int] = [:]
        for task in tasks {
            let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)) ?? ""
            for line in status.split(separator: "\n")
            where line.hasPrefix("voluntary_ctxt_switches") || line.hasPrefix("nonvoluntary_ctxt_switches") {
                switches[task, default: 0] += Int(line.split(separator: "\t").last ?? "") ?? 0
            }
        }
        return switches
    }

    private static func woken(_ before: [String: Int], _ after: [String: Int]) -> [String: Int] {
        after.filter { before[$0.key] != $0.value }
    }
}
