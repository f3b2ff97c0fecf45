import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// `--agent --speech espeak` through a PulseAudio of the test's own: the agent waits all day, so once its wait has
/// been said it lets its voice go and renews itself (the same program executed again, the terminal and the
/// directories' watch handed over): no voice library stays mapped and no thread of it wakes; the next request loads
/// the voice again and is spoken. The speech threads' events come from `OTC_PROMPT_TRACE`.
@Suite(.runsPrograms)
struct AgentIdleEndToEndTests {
    @Test(.enabled(if: PrivatePulseAudio.isInstalled, "needs pulseaudio, parec and sox (make deps)"))
    func anIdleAgentHoldsNoVoiceWakesNoThreadAndTheNextRequestIsStillSpoken() async throws {
        let pulse = try #require(PrivatePulseAudio.start(), "PulseAudio is installed but did not start")
        defer { pulse.stop() }
        let trace = SpeechTraceFile()
        defer { trace.remove() }
        let directory = AgentQuerier.directory()
        let run = try await PromptRun(
            ["--agent", "--verbosity", "terse", "--agent-directory", directory],
            environment: PromptRun.environment(["PULSE_SERVER": pulse.server, "OTC_PROMPT_TRACE": trace.path]),
            speech: "espeak", ready: "Waiting for password requests")
        let pid = run.process.processID
        // While the wait is being said (its first sample handed to the device, its silence not yet past): espeak-ng
        // is loaded in the agent.
        #expect(await run.process.wait(deadline: .seconds(20)) { _ in trace.events.contains("sample") })
        if !trace.events.contains("released") { #expect(Self.mapsVoiceLibraries(pid)) }
        #expect(
            await run.process.wait(deadline: .seconds(20)) { _ in trace.events.contains { $0 == "renewed" } },
            "trace: \(trace.events)")
        #expect(!Self.mapsVoiceLibraries(pid), "espeak-ng or libpulse still mapped after the renewal")
        #expect(Self.name(of: pid) == "otc-prompt")

        // "renewed" is traced as the new image starts, before it has read its settings and drawn its wait: under
        // load that takes a while, so the count starts once the renewed agent has gone quiet.
        #expect(await Self.settles(pid, deadline: .seconds(15)), "the renewed agent never went quiet")
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
        // The request's announcement reached the device: the voice loaded again, and a first sample handed to it.
        #expect(
            await run.process.wait(deadline: .seconds(20)) { _ in
                let events = trace.events
                guard let renewed = events.firstIndex(of: "renewed") else { return false }
                return events[renewed...].contains("device") && events[renewed...].contains("sample")
            }, "trace: \(trace.events)")
        await run.waitPastTheGrace()
        run.type("quiet horse\r")
        #expect(await querier.answer() == "+quiet horse")
        // The wait after it renews the agent again; a signal then ends it as that signal, the terminal restored.
        #expect(
            await run.process.wait(deadline: .seconds(20)) { _ in
                trace.events.filter { $0 == "renewed" }.count == 2
            }, "trace: \(trace.events)")
        run.process.sendSignal(SIGTERM)
        #expect(await run.exit() == .signaled(SIGTERM))
        #expect(run.terminalRestored)
    }

    /// A key typed at a renewed agent is taken by the wait it wakes, on the same line: Esc stops the agent at once,
    /// as on a wait still holding its voice, and nothing of the wait is drawn twice.
    @Test(.enabled(if: PrivatePulseAudio.isInstalled, "needs pulseaudio, parec and sox (make deps)"))
    func escapeOnARenewedAgentStopsItFromTheSameLine() async throws {
        let pulse = try #require(PrivatePulseAudio.start(), "PulseAudio is installed but did not start")
        defer { pulse.stop() }
        let trace = SpeechTraceFile()
        defer { trace.remove() }
        let run = try await PromptRun(
            ["--agent", "--verbosity", "terse", "--agent-directory", AgentQuerier.directory()],
            environment: PromptRun.environment(["PULSE_SERVER": pulse.server, "OTC_PROMPT_TRACE": trace.path]),
            speech: "espeak", ready: "Waiting for password requests")
        #expect(
            await run.process.wait(deadline: .seconds(20)) { _ in trace.events.contains { $0 == "renewed" } },
            "trace: \(trace.events)")
        let saidBefore = run.log.count
        run.type([0x1B])
        #expect(await run.waitForEvent("cancel", deadline: .seconds(20)), "log: \(run.log)")
        // The wait was heard already: only what the key does is said.
        #expect(run.log.dropFirst(saidBefore).map(\.text) == ["Agent stopped."])
        #expect(await run.exit() == .exited(0))
        #expect(run.terminalRestored)
        let shown = ScreenModel(run.process.screen).lines.filter { $0.contains("Waiting for password requests") }
        #expect(shown.count == 1, "screen: \(ScreenModel(run.process.screen).lines)")
    }

    /// With the user's speech-dispatcher chosen by `auto`, the agent never loads espeak-ng (not even while `auto`
    /// probes, as a prompt does to gain time): its libraries could not be unloaded, and would be held all day for
    /// nothing.
    @Test(
        .enabled(
            if: PrivateSpeechDispatcher.isInstalled && PrivatePulseAudio.isInstalled,
            "needs speech-dispatcher, speech-dispatcher-espeak-ng and pulseaudio (make deps)"))
    func anAgentSpeakingThroughSpeechDispatcherNeverLoadsEspeak() async throws {
        let pulse = try #require(PrivatePulseAudio.start(), "PulseAudio is installed but did not start")
        defer { pulse.stop() }
        let speechd = try #require(PrivateSpeechDispatcher.start(pulse: pulse), "speech-dispatcher did not start")
        defer { speechd.stop() }
        let directory = AgentQuerier.directory()
        let run = try await PromptRun(
            ["--agent", "--agent-directory", directory], environment: PromptRun.environment(speechd.clientEnvironment),
            speech: "auto", ready: "Waiting for password requests")
        let pid = run.process.processID
        #expect(await run.waitForEvent("prompt", deadline: .seconds(20)))
        let querier = try AgentQuerier(
            in: directory, lines: ["PID=\(getpid())", "Echo=0", "Message=Through the server"])
        // Once in a CI run under load, the request was logged as said but never drawn, and SIGTERM did not end the
        // agent: the threads' states say where it waits, should it happen again.
        #expect(
            await run.process.waitForScreen(containing: "Through the server", deadline: .seconds(20)),
            "log: \(run.log); \(run.process.stuckReport)")
        await run.waitPastTheGrace()
        run.type("by ear\r")
        #expect(await querier.answer() == "+by ear")
        #expect(await run.waitForEvent("prompt", count: 3, deadline: .seconds(20)), "log: \(run.log)")
        let log = (try? String(contentsOfFile: run.logPath, encoding: .utf8)) ?? ""
        #expect(log.contains("\"speech\": \"speechd: "), "chosen: \(log.prefix(300))")
        #expect(!Self.mapsVoiceLibraries(pid), "espeak-ng or libpulse mapped with speech-dispatcher chosen")
        run.process.sendSignal(SIGTERM)
        #expect(await run.exit() == .signaled(SIGTERM), "\(run.process.stuckReport)")
        #expect(run.terminalRestored)
    }

    /// The screen says each thing once: a querier that removes its file and only then closes it (as
    /// systemd-ask-password does), here while the wait after its answer is being said, leaves no request behind, so
    /// the wait is drawn and said once, and the renewal after it adopts its line.
    @Test(.enabled(if: PrivatePulseAudio.isInstalled, "needs pulseaudio, parec and sox (make deps)"))
    func aQuerierClosingItsRemovedFileAfterTheAnswerIsNoRequestAndTheWaitIsDrawnOnce() async throws {
        let directory = AgentQuerier.directory()
        try await VoicedAgent.run(in: directory) { run, trace in
            #expect(await VoicedAgent.renewed(run, trace))
            // The file written through a descriptor kept open, as systemd-ask-password keeps its FILE.
            let querier = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=Closed late"])
            let held = open(querier.askPath, O_WRONLY | O_APPEND | O_CLOEXEC)
            #expect(held >= 0)
            #expect(await run.process.waitForScreen(containing: "Closed late", deadline: .seconds(20)))
            await run.waitPastTheGrace()
            run.type("pw\r")
            #expect(await querier.answer() == "+pw")
            #expect(await run.waitForEvent("prompt", count: 3, deadline: .seconds(20)), "the wait after the answer")
            unlink(querier.askPath)
            close(held)
            #expect(await VoicedAgent.renewed(run, trace, count: 2), "trace: \(trace.events)")
            #expect(Self.drawnWaits(run) == 2, "screen: \(ScreenModel(run.process.screen).lines)")
            #expect(run.log.filter { $0.text.hasPrefix("Waiting for password requests") }.count == 2)
        }
    }

    /// How many times the wait was drawn on the screen, as bytes written (a screen reader reads each).
    static func drawnWaits(_ run: PromptRun) -> Int {
        run.process.screen.components(separatedBy: "Waiting for password requests.").count - 1
    }

    /// Whether `pid` has espeak-ng or libpulse mapped.
    private static func mapsVoiceLibraries(_ pid: pid_t) -> Bool {
        // Read to its end: /proc reports a size of 0, which a read of the file's size would take at its word.
        let data = FileHandle(forReadingAtPath: "/proc/\(pid)/maps")?.readDataToEndOfFile() ?? Data()
        let maps = String(decoding: data, as: UTF8.self)
        return maps.contains("libespeak-ng") || maps.contains("libpulse")
    }

    private static func name(of pid: pid_t) -> String {
        ((try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? "").trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    /// Voluntary and involuntary context switches of each thread of `pid`, by thread id.
    static func contextSwitches(of pid: pid_t) -> [String: Int] {
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

    /// Whether `pid`'s threads come to sit still: no context switch in any of two looks 250 ms apart, and every thread
    /// asleep at the last. A thread that is runnable but not yet run (a starved machine in a loaded CI run) switches
    /// no more for as long as it waits for a core: counters alone took it for still, and its last piece of work was
    /// then counted as a wake-up.
    static func settles(_ pid: pid_t, deadline: Duration) async -> Bool {
        let clock = ContinuousClock()
        let end = clock.now + deadline
        var last = contextSwitches(of: pid)
        var quietLooks = 0
        while clock.now < end {
            try? await Task.sleep(for: .milliseconds(250))
            let now = contextSwitches(of: pid)
            quietLooks = now == last && !now.isEmpty && allAsleep(pid) ? quietLooks + 1 : 0
            if quietLooks == 2 { return true }
            last = now
        }
        return false
    }

    /// Whether every thread of `pid` is asleep (state S in /proc/PID/task/TID/stat), none running or waiting to run.
    static func allAsleep(_ pid: pid_t) -> Bool {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return !tasks.isEmpty
            && tasks.allSatisfy { task in
                let stat = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/stat", encoding: .utf8)) ?? ""
                // "TID (name) S …": the state follows the name's closing parenthesis.
                guard let close = stat.lastIndex(of: ")") else { return false }
                return stat[stat.index(after: close)...].drop { $0 == " " }.first == "S"
            }
    }

    private static func woken(_ before: [String: Int], _ after: [String: Int]) -> [String: Int] {
        after.filter { before[$0.key] != $0.value }
    }
}
