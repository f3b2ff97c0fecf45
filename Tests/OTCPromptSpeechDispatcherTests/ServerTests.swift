import Foundation
import OTCPromptCore
import OTCPromptHost
import OTCPromptTestSupport
import Testing

@testable import OTCPromptSpeechDispatcher

/// Against a real speech-dispatcher 0.11 of the test's own (espeak-ng module, a private null sink),
/// through a proxy that records what it was asked. One at a time: each starts its own servers.
@Suite(
    .runsPrograms,
    .serialized,
    .enabled(
        if: PrivateSpeechDispatcher.isInstalled && PrivatePulseAudio.isInstalled,
        "needs speech-dispatcher, speech-dispatcher-espeak-ng, pulseaudio, parec and sox (make deps)"))
struct ServerTests {
    /// A server, a proxy in front of it, and the environment that points a client at the proxy.
    struct Servers {
        let pulse: PrivatePulseAudio
        let speechd: PrivateSpeechDispatcher
        let proxy: SSIPRecordingProxy
        var environment: [String: String] {
            speechd.clientEnvironment.merging(["SPEECHD_ADDRESS": "unix_socket:\(proxy.path)"]) { $1 }
        }
        func stop() {
            proxy.close()
            speechd.stop()
            pulse.stop()
        }
    }

    func start(logLevel: Int? = nil) throws -> Servers {
        let pulse = try #require(PrivatePulseAudio.start(), "PulseAudio is installed but did not start")
        guard let speechd = PrivateSpeechDispatcher.start(pulse: pulse, logLevel: logLevel) else {
            pulse.stop()
            throw TestFailure("speech-dispatcher is installed but did not start")
        }
        let proxy = try SSIPRecordingProxy(path: speechd.directory + "/proxy.sock", serverPath: speechd.socketPath)
        return Servers(pulse: pulse, speechd: speechd, proxy: proxy)
    }

    struct TestFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    let user = UserAccount(name: "ana", homeDirectory: "/nonexistent")

    /// A second client that speaks as Fenrir does: at `message`, the server's default, its events on.
    func screenReader(_ servers: Servers) throws -> SSIPTestClient {
        let reader = try SSIPTestClient(path: servers.speechd.socketPath)
        try reader.request("SET self CLIENT_NAME ana:fenrir:main")
        try reader.request("SET self NOTIFICATION all on")
        try reader.request("SET self PRIORITY message")
        return reader
    }

    @Test func theServerIsAskedForOurNameAndPriorityAndOnlyTheSettingsGivenThenTheTextAsSSML() throws {
        let servers = try start()
        defer { servers.stop() }
        let backend = try SpeechDispatcherBackend(
            options: SpeechDispatcherOptions(rate: 300), environment: servers.environment,
            user: user)
        backend.speak(Announcement(.digit, "9"))
        backend.finish(timeout: .seconds(3))
        let lines = servers.proxy.lines
        #expect(lines.contains("SET self CLIENT_NAME ana:otc-prompt:main"))
        #expect(lines.contains("SET self PRIORITY important"))
        #expect(lines.contains("SET self RATE 47"))
        #expect(!lines.contains { $0.contains("LANGUAGE") || $0.contains("VOICE") })
        #expect(lines.suffix(3) == ["SPEAK", "<speak>9</speak>", "."])
        #expect(backend.failure == nil && backend.takeUnsaid().isEmpty)
    }

    @Test func aNewKeyCancelsOurOwnStaleSpeechAndEveryAnnouncementIsHeard() throws {
        let servers = try start()
        defer { servers.stop() }
        var backend: SpeechDispatcherBackend?
        let rms = try servers.pulse.recordingRMS(to: servers.speechd.directory + "/monitor.raw") {
            backend = try SpeechDispatcherBackend(
                options: SpeechDispatcherOptions(), environment: servers.environment, user: user)
            backend?.speak(Announcement(.readback, "9 8 5, 3 9 1. All 6."))
            usleep(300_000)
            backend?.speak(Announcement(.digit, "7"))
            backend?.finish(timeout: .seconds(3))  // the recording goes on until the speech is heard
        }
        #expect(rms > 0.001, "nothing was heard on the null sink")
        let lines = servers.proxy.lines
        let cancel = try #require(lines.firstIndex(of: "CANCEL self"), "\(lines)")
        #expect(lines[cancel...].prefix(3) == ["CANCEL self", "SPEAK", "<speak>7</speak>"])
        #expect(backend?.takeUnsaid().isEmpty == true)
    }

    @Test func aScreenReadersLongMessageIsCutByOurEchoNotQueuedBeforeIt() throws {
        let servers = try start()
        defer { servers.stop() }
        let reader = try screenReader(servers)
        let backend = try SpeechDispatcherBackend(
            options: SpeechDispatcherOptions(), environment: servers.environment, user: user)
        var readerMessage = ""
        let rms = try servers.pulse.recordingRMS(to: servers.speechd.directory + "/monitor.raw") {
            readerMessage = try reader.speak(
                "This is a long sentence from the screen reader, which goes on for several seconds before it ends.")
            usleep(400_000)
            for digit in "985391" {
                backend.speak(Announcement(.digit, String(digit)))
                usleep(150_000)
            }
            backend.finish(timeout: .seconds(3))  // the recording goes on until the speech is heard
        }
        #expect(rms > 0.001)
        #expect(backend.failure == nil && backend.takeUnsaid().isEmpty, "an announcement of ours was not accepted")
        // Every one of ours reached the server, in order.
        let spoken = servers.proxy.lines.filter { $0.hasPrefix("<speak>") }
        #expect(spoken == "985391".map { "<speak>\($0)</speak>" })
        // The screen reader's sentence began, then was cut (703) by our echo: never played on
        // under ours (speech-dispatcher plays one message at a time) nor before it.
        let id = try #require(readerMessage.split(separator: "\n").first.map { String($0.dropFirst(4)) })
        #expect(reader.waitForEvent("703"), "events: \(reader.events)")
        #expect(reader.events.contains("701 \(id)") && reader.events.contains("703 \(id)"), "\(reader.events)")
        #expect(!reader.events.contains("702 \(id)"), "the screen reader's sentence played to its end")
    }

    /// The opening shares the server with a screen reader (`message`, as Fenrir and speech-dispatcher's default):
    /// it waits for the reading in progress (the lines printed before the prompt) to end instead of cutting it, gives
    /// way to the screen reader's next message instead of holding it back, and is sent again after it. The server's
    /// own log says who cancelled whom.
    @Test func theOpeningWaitsForTheScreenReaderAndGivesWayToItsNextMessage() throws {
        let servers = try start(logLevel: 5)
        defer { servers.stop() }
        let reader = try screenReader(servers)
        let backend = try SpeechDispatcherBackend(
            options: SpeechDispatcherOptions(), environment: servers.environment, user: user)
        let first = try reader.speak("A long line the program printed just before the prompt, read to its end first.")
        usleep(300_000)
        backend.speak(Announcement(.prompt, "Verification code. Type 6 digits. Control R reads them back."))
        usleep(700_000)
        let second = try reader.speak("Verification code colon")
        // The loop's part: wake on the voice's news and hand it over, until the opening has ended.
        let deadline = ContinuousClock.now + .seconds(30)
        while let descriptor = backend.newsDescriptor, ContinuousClock.now < deadline {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, 200)
            backend.takeNews()
        }
        #expect(backend.newsDescriptor == nil, "the opening never ended")
        #expect(backend.openingResent == 1)
        backend.finish(timeout: .seconds(1))

        let log = SpeechDispatcherLog(path: servers.speechd.logPath)
        let ours = try #require(log.client(named: "otc-prompt"))
        let theirs = try #require(log.client(named: "fenrir"))
        let firstID = try #require(Int(first.split(separator: "\n")[0].dropFirst(4)))
        let secondID = try #require(Int(second.split(separator: "\n")[0].dropFirst(4)))
        // The screen reader's reading was heard to its end, then its next line at once: neither cut nor held back.
        let firstEnd = try #require(log.time(of: 702, for: firstID), "\(log.replies(to: theirs))")
        #expect(log.time(of: 703, for: firstID) == nil, "our opening cut the screen reader's reading")
        let secondBegin = try #require(log.time(of: 701, for: secondID), "\(log.replies(to: theirs))")
        #expect(secondBegin - firstEnd < 0.5, "the screen reader's next line waited behind our opening")
        #expect(log.time(of: 702, for: secondID) != nil)
        // Ours: queued, cut when the screen reader's next line came, sent again, then heard to its end after it.
        let queued = log.replies(to: ours).filter { $0.code == 225 }.map(\.message)
        #expect(queued.count == 2, "\(log.replies(to: ours))")
        #expect(log.time(of: 703, for: queued[0]) != nil)
        let openingEnd = try #require(log.time(of: 702, for: queued[1]), "\(log.replies(to: ours))")
        #expect(openingEnd > (log.time(of: 702, for: secondID) ?? .infinity))
    }

    @Test func aServerKilledMidPromptIsReportedAndLosesNoAnnouncement() throws {
        let servers = try start()
        defer { servers.stop() }
        let backend = try SpeechDispatcherBackend(
            options: SpeechDispatcherOptions(), environment: servers.environment, user: user)
        backend.speak(Announcement(.digit, "9"))
        usleep(200_000)
        servers.speechd.kill()
        usleep(100_000)
        for digit in "853" { backend.speak(Announcement(.digit, String(digit))) }
        backend.finish(timeout: .seconds(2))
        // The backend only reports: the notice and the switch to text are `SpeechFallback`'s.
        #expect(backend.failure == .speechDispatcherStopped)
        #expect(backend.takeUnsaid().map(\.text) == ["8", "5", "3"])
    }

    @Test func aServerThatStopsAnsweringCostsAtMostTheReplyTimeoutAndNothingIsLost() throws {
        let servers = try start()
        defer { servers.stop() }
        let backend = try SpeechDispatcherBackend(
            options: SpeechDispatcherOptions(replyTimeout: .milliseconds(300)),
            environment: servers.speechd.clientEnvironment, user: user)
        let pid = servers.speechd.processIdentifier
        kill(pid, SIGSTOP)
        defer { kill(pid, SIGCONT) }
        let clock = ContinuousClock()
        let started = clock.now
        backend.speak(Announcement(.digit, "9"))
        backend.speak(Announcement(.digit, "8"))
        backend.finish(timeout: .seconds(3))
        #expect(clock.now - started < .milliseconds(800))
        #expect(backend.failure == .speechDispatcherStopped)
        #expect(backend.takeUnsaid().map(\.text) == ["9", "8"])
    }

    @Test func withNothingListeningTheBackendSaysWhyAndTheProbeSaysNo() throws {
        let environment = ["SPEECHD_ADDRESS": "unix_socket:/nonexistent/speechd.sock"]
        #expect(throws: SpeechDispatcherError.self) {
            _ = try SpeechDispatcherBackend(
                options: SpeechDispatcherOptions(), environment: environment,
                user: user)
        }
        guard case .failure(.unreachable) = SpeechDispatcherBackend.probe(environment: environment, user: user) else {
            Issue.record("the probe answered without a server")
            return
        }
        #expect(throws: SpeechDispatcherError.unsupportedAddress(method: "inet_socket")) {
            _ = try SpeechDispatcherBackend(
                options: SpeechDispatcherOptions(), environment: ["SPEECHD_ADDRESS": "inet_socket:127.0.0.1:6560"],
                user: user)
        }
    }

    @Test func theProbeNamesTheOutputModule() throws {
        let servers = try start()
        defer { servers.stop() }
        let module = try SpeechDispatcherBackend.probe(environment: servers.environment, user: user).get()
        #expect(module == "espeak-ng")
    }

    @Test func autospawnStartsTheServerAsLibspeechdDoesWhenNothingAnswers() throws {
        let servers = try start()
        defer { servers.stop() }
        // $SPEECHD_CMD stands in for speech-dispatcher: it gets libspeechd's arguments and starts a
        // second private server on the socket path it was given, recording its PID to stop it.
        let directory = servers.speechd.directory
        let script = directory + "/spawn.sh"
        try writeExecutable(
            """
            #!/bin/sh
            echo "$@" > \(directory)/spawn.arguments
            /usr/bin/speech-dispatcher -s -t 0 -C \(directory)/conf -S "$5" -L \(directory)/logs \\
                -P \(directory)/spawned.pid >/dev/null 2>&1 &
            echo $! > \(directory)/spawned.process
            """, to: script)
        defer {
            // speech-dispatcher --spawn forks: the server that stays is the one its own pid file names.
            for file in ["spawned.pid", "spawned.process"] {
                if let text = try? String(contentsOfFile: directory + "/" + file, encoding: .utf8),
                    let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 1
                {
                    kill(pid, SIGTERM)
                    for _ in 0..<100 where kill(pid, 0) == 0 { usleep(20_000) }
                    if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
                }
            }
        }
        let socket = directory + "/spawned.sock"
        let environment = ["SPEECHD_ADDRESS": "unix_socket:\(socket)", "SPEECHD_CMD": script]
        guard case .failure = SpeechDispatcherBackend.probe(environment: environment, user: user) else {
            Issue.record("something answered before the spawn")
            return
        }
        // The stand-in returns at once and the server comes up behind it, which takes over 5 s (the default limit)
        // on a machine busy with compilers: the limit here is the mechanism's, not a figure under test.
        let backend = try SpeechDispatcherBackend(
            options: SpeechDispatcherOptions(autospawn: true, spawnTimeout: .seconds(60)), environment: environment,
            user: user)
        backend.speak(Announcement(.digit, "9"))
        backend.finish(timeout: .seconds(2))
        #expect(backend.failure == nil)
        let arguments = try String(contentsOfFile: directory + "/spawn.arguments", encoding: .utf8)
        #expect(arguments == "--spawn --communication-method unix_socket --socket-path \(socket)\n")
    }
}
