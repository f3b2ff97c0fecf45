import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// `--touch-watch` heard through a PulseAudio of the test's own: the cue in words and as a tone reaches the device,
/// and the device is let go after each, so an idle watcher holds no stream and wakes no thread.
@Suite(.runsPrograms)
struct TouchWatchVoiceEndToEndTests {
    /// The clients connected to `pulse` now, as `pactl` lists them.
    static func clients(_ pulse: PrivatePulseAudio) -> String {
        (try? runToCompletion(
            "/usr/bin/pactl", ["-s", pulse.server, "list", "short", "clients"], environment: pulse.clientEnvironment))
            ?? ""
    }

    @Test(
        .enabled(if: PrivatePulseAudio.isInstalled, "needs pulseaudio, parec and sox (make deps)"),
        arguments: ["words", "tone"])
    func theCueIsHeardOnTheDeviceWhichIsLetGoAfterIt(cue: String) async throws {
        let pulse = try #require(PrivatePulseAudio.start(), "PulseAudio is installed but did not start")
        defer { pulse.stop() }
        let environment = PromptRun.environment(pulse.clientEnvironment)
        let directory = try #require(environment["XDG_RUNTIME_DIR"])
        let run = try await PromptRun(
            ["--touch-watch", "--touch-cue", cue], environment: environment, speech: "espeak",
            ready: "touch cues watch")
        let pending = directory + "/pam-u2f-authpending"
        let rms = try await pulse.recordingRMS(to: pulse.directory + "/monitor.raw") {
            let file = open(pending, O_RDONLY | O_CREAT | O_CLOEXEC, 0o600)
            defer { close(file) }
            #expect(
                await TouchWatchEndToEndTests.heard(run, count: 1) {} != nil, "screen: \(run.process.screen)")
        }
        #expect(rms > 0.002, "the \(cue) was not heard (RMS \(rms))")
        // Let go: no client of the watcher's left on the server once the cue has been heard.
        #expect(
            await run.process.wait(deadline: .seconds(10)) { _ in !Self.clients(pulse).contains("otc-prompt") },
            "clients: \(Self.clients(pulse))")
        let pid = run.process.processID
        #expect(await AgentIdleEndToEndTests.settles(pid, deadline: .seconds(15)), "the watcher never went quiet")
        let before = AgentIdleEndToEndTests.contextSwitches(of: pid)
        usleep(2_000_000)  // measured interval: nothing is expected to happen in it
        #expect(AgentIdleEndToEndTests.contextSwitches(of: pid) == before)
        await run.expectEndsPromptly(by: SIGTERM)
    }

    /// The watcher goes on reading while a cue is heard: a wait that ends and another that begins during it keep
    /// their own times, so the second is a wait of its own, cued at once, superseding the first's words.
    @Test(.enabled(if: PrivatePulseAudio.isInstalled, "needs pulseaudio, parec and sox (make deps)"))
    func aWaitBegunWhileTheLastCueIsStillHeardIsCuedAtOnce() async throws {
        let pulse = try #require(PrivatePulseAudio.start(), "PulseAudio is installed but did not start")
        defer { pulse.stop() }
        let environment = PromptRun.environment(pulse.clientEnvironment)
        let directory = try #require(environment["XDG_RUNTIME_DIR"])
        let pending = directory + "/pam-u2f-authpending"
        let run = try await PromptRun(
            ["--touch-watch"], environment: environment, speech: "espeak", ready: "touch cues watch")
        // "Touch your security key." lasts over a second at espeak-ng's rate: each wait here begins inside the
        // last one's words.
        for wait in 1...3 {
            var file: Int32 = -1
            let latency = await TouchWatchEndToEndTests.heard(run, count: wait) {
                file = open(pending, O_RDONLY | O_CREAT | O_CLOEXEC, 0o600)
            }
            close(file)
            #expect(try #require(latency, "wait \(wait) was not cued") < TouchWatchEndToEndTests.limit)
            await TouchWatchEndToEndTests.pastTheMergeWindow()
        }
        await run.expectEndsPromptly(by: SIGTERM)
    }

    /// The cue's voice starts on its own thread while the watcher goes on reading: with a speech-dispatcher that
    /// answers each of its opening commands half a second late, the first cue's voice starts for
    /// `TouchCueSpeaker.startupLimit` (2 s), and a wait that begins meanwhile is still cued within the second
    /// promised. Read only once that voice had started, it was cued up to 2 s late.
    @Test func aWaitDuringTheLastCuesVoiceStartUpIsCuedWithinASecond() async throws {
        var environment = PromptRun.environment()
        let directory = try #require(environment["XDG_RUNTIME_DIR"])
        // Each reply within the client's one-second limit, six commands in all: slow, never gone.
        let server = try ScriptedSSIPServer(pauseBeforeReplies: 500_000)
        environment["SPEECHD_ADDRESS"] = "unix_socket:\(server.path)"
        let run = try await PromptRun(
            ["--touch-watch"], environment: environment, speech: "speechd", ready: "touch cues watch")
        let pending = directory + "/pam-u2f-authpending"
        var file = open(pending, O_RDONLY | O_CREAT | O_CLOEXEC, 0o600)
        try #require(file >= 0)
        try? await Task.sleep(for: .milliseconds(100))
        close(file)
        await TouchWatchEndToEndTests.pastTheMergeWindow()
        // Its line on the screen: the words themselves wait for the slow voice, and the log is written once the
        // voice is known.
        let clock = ContinuousClock()
        let opened = clock.now
        file = open(pending, O_RDONLY | O_CREAT | O_CLOEXEC, 0o600)
        let shown = await run.process.wait(deadline: .seconds(10)) { process in
            String(decoding: process.screenBytesSoFar, as: UTF8.self).split(separator: TouchWatchEndToEndTests.cue)
                .count
                > 2
        }
        let latency = clock.now - opened
        close(file)
        #expect(shown, "screen: \(run.process.screen)")
        #expect(latency < TouchWatchEndToEndTests.limit)
        #expect(
            await run.process.wait(deadline: .seconds(10)) { _ in
                run.logLines().filter { $0.text == TouchWatchEndToEndTests.cue }.count == 2
            }, "log: \(run.logLines().map(\.text))")
        await run.expectEndsPromptly(by: SIGTERM)
    }

    /// Through speech-dispatcher the cue is an opening: a screen reader's sentence under way is heard to its end,
    /// never cut, and the cue follows it.
    @Test(
        .enabled(
            if: PrivateSpeechDispatcher.isInstalled && PrivatePulseAudio.isInstalled,
            "needs speech-dispatcher and pulseaudio (make deps)"))
    func throughSpeechDispatcherTheCueNeverCutsTheScreenReader() async throws {
        let pulse = try #require(PrivatePulseAudio.start(), "PulseAudio is installed but did not start")
        defer { pulse.stop() }
        let speechd = try #require(
            PrivateSpeechDispatcher.start(pulse: pulse, logLevel: 5), "speech-dispatcher did not start")
        defer { speechd.stop() }
        let environment = PromptRun.environment(speechd.clientEnvironment)
        let directory = try #require(environment["XDG_RUNTIME_DIR"])
        let run = try await PromptRun(
            ["--touch-watch"], environment: environment, speech: "speechd", ready: "touch cues watch")
        let reader = try SSIPTestClient(path: speechd.socketPath)
        try reader.request("SET self CLIENT_NAME ana:fenrir:main")
        try reader.request("SET self NOTIFICATION all on")
        try reader.request("SET self PRIORITY message")
        let reply = try reader.speak("A line the screen reader reads aloud, which the cue must not cut short.")
        let readerID = try #require(Int(reply.split(separator: "\n")[0].dropFirst(4)))
        var file: Int32 = -1
        #expect(
            await TouchWatchEndToEndTests.heard(run, count: 1) {
                file = open(directory + "/pam-u2f-authpending", O_RDONLY | O_CREAT | O_CLOEXEC, 0o600)
            } != nil)
        close(file)
        // The server's log says when each message ended (702) or was cut (703).
        var log = SpeechDispatcherLog(path: speechd.logPath)
        let ended = await run.process.wait(deadline: .seconds(20)) { _ in
            log = SpeechDispatcherLog(path: speechd.logPath)
            guard let ours = log.client(named: "otc-prompt"),
                let cue = log.message(of: ours, containing: "Touch your security key")
            else { return false }
            return log.time(of: 702, for: cue) != nil
        }
        #expect(ended, "the cue was never heard to its end")
        #expect(log.time(of: 703, for: readerID) == nil, "the cue cut the screen reader's sentence")
        let readerEnd = try #require(log.time(of: 702, for: readerID))
        let ours = try #require(log.client(named: "otc-prompt"))
        let cue = try #require(log.message(of: ours, containing: "Touch your security key"))
        #expect(try #require(log.time(of: 702, for: cue)) > readerEnd)
        await run.expectEndsPromptly(by: SIGTERM)
    }
}
