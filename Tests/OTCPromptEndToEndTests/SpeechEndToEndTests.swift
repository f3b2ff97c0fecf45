import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// The built binary with real espeak-ng speech: no audio server, a PulseAudio null sink, a WAV file.
@Suite(.runsPrograms, .serialized)
struct SpeechEndToEndTests {
    @Test func withNoAudioServerTheCodeStillComesBackAndNoAudioNoiseReachesTheTerminal() async throws {
        let run = try await PromptRun([], speech: "espeak")
        #expect(
            await run.process.waitForScreen(containing: "speech unavailable: no audio device", deadline: .seconds(5)))
        run.type("123456")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "123456\n")
        let screen = run.process.screen
        for noise in ["ALSA", "alsa", "pcm", "PulseAudio", "pulse", "Connection refused"] {
            #expect(!screen.contains(noise), "\(noise) reached the terminal: \(screen.debugDescription)")
        }
        // Text lines took over: each announcement is its own line.
        #expect(screen.contains("\r\n1\r\n"))
    }

    @Test(.enabled(if: PrivatePulseAudio.isInstalled, "needs pulseaudio, parec and sox (make deps)"))
    func speechReachesARealAudioDevice() async throws {
        let pulse = try #require(PrivatePulseAudio.start(), "PulseAudio is installed but did not start")
        defer { pulse.stop() }
        var screen = ""
        let rms = try await pulse.recordingRMS(to: pulse.directory + "/monitor.raw") {
            let run = try await PromptRun(
                [], environment: PromptRun.environment(["PULSE_SERVER": pulse.server]), speech: "espeak")
            // Typed once the voice is known (the log's first line waits for it): a code completed while the voice
            // still starts under load is given only a short grace for its last words, which would then be silent.
            #expect(await !run.logEntries(atLeast: 1, deadline: .seconds(10)).isEmpty)
            run.type("985391")
            #expect(await run.exit() == .exited(0))
            #expect(run.process.standardOutput == "985391\n")
            screen = run.process.screen
        }
        #expect(rms > 0.001, "no audio arrived at the null sink")
        #expect(!screen.contains("speech unavailable"))
        #expect(!screen.contains("ALSA"))
    }

    /// The log read back as the listener heard it, with real espeak-ng into a null sink: the opening began to be
    /// heard, a digit typed over it cut it, and the digit's echo was heard to its end.
    @Test(.enabled(if: PrivatePulseAudio.isInstalled, "needs pulseaudio, parec and sox (make deps)"))
    func theLogSaysTheOpeningBeganToBeHeardWasCutByTheDigitAndTheDigitWasHeard() async throws {
        let pulse = try #require(PrivatePulseAudio.start(), "PulseAudio is installed but did not start")
        defer { pulse.stop() }
        let run = try await PromptRun(
            [], environment: PromptRun.environment(["PULSE_SERVER": pulse.server]), speech: "espeak")
        try await run.expectADigitCutsTheOpeningAndIsHeardWhole()
    }

    /// espeak-ng 1.51 probes the audio device while it initialises, even in the SYNCHRONOUS mode that plays
    /// nothing: pcaudiolib opens a stream "Text-to-Speech" as client "eSpeak" (3-6 ms, and a wait on a stuck
    /// server). The executable declines that probe (EspeakAudioProbe); the prompt's own stream is the only one.
    @Test(.enabled(if: PrivatePulseAudio.isInstalled, "needs pulseaudio, parec and sox (make deps)"))
    func startingTheEngineOpensNoProbeStreamOnlyThePromptsOwn() async throws {
        let pulse = try #require(PrivatePulseAudio.start(logging: true), "PulseAudio is installed but did not start")
        defer { pulse.stop() }
        let run = try await PromptRun(
            [], environment: PromptRun.environment(["PULSE_SERVER": pulse.server]), speech: "espeak")
        let deadline = Date().addingTimeInterval(5)
        while !pulse.serverLog.contains("\"One-time code prompt\""), Date() < deadline { usleep(20_000) }
        run.type("985391")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "985391\n")
        let log = pulse.serverLog
        // The log names streams and clients: the prompt's own stream shows the check can see one.
        #expect(log.contains("Created input") && log.contains("\"One-time code prompt\""), "server log: \(log)")
        for probe in ["\"eSpeak\"", "\"Text-to-Speech\""] {
            #expect(!log.contains(probe), "espeak-ng's audio probe reached the server: \(log)")
        }
    }

    @Test func audioFileHoldsTheSpeech() async throws {
        let path = NSTemporaryDirectory() + "/otc-e2e-\(UUID().uuidString).wav"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try await PromptRun(["--audio-file", path])
        run.type("985")
        #expect(await run.waitForEvent("digit", count: 3), "\(run.log)")
        run.type([0x12])  // read back
        #expect(await run.waitForEvent("readback"))
        // The file is a device that plays in real time: once it holds a second of sound, the read-back is in it.
        let oneSecond = 44 + 22050 * 2
        #expect(
            await run.process.wait(deadline: .seconds(10)) { _ in
                ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int ?? 0) > oneSecond
            })
        run.type("391")
        #expect(await run.exit() == .exited(0))
        var status = stat()
        #expect(stat(path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600, "the audio holds the code: only its owner may read it")
        let info = try runToCompletion("/usr/bin/soxi", ["-D", path])
        let seconds = Double(info.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(seconds > 1, "soxi: \(info)")
        let statistics = try runToCompletion("/usr/bin/sox", [path, "-n", "stat"])
        #expect(statistics.contains("RMS     amplitude"), "\(statistics)")
    }

    @Test func maskedAudioIsTheSameForTwoDifferentCodes() async throws {
        /// Each key typed once the announcement before it has played whole, so timing cannot change the
        /// audio. The file is a device that plays in real time and records no silence: an announcement
        /// has played when the file, having grown, stops growing (`sizes` nil); or, for the second code,
        /// when it reaches the size the first code's file had at that point, and the device's buffer
        /// (`WAVFileSink`'s 20 ms, counted by its clock) has played too.
        func audio(typing code: String, sizes expected: [Int]? = nil) async throws -> (bytes: [UInt8], sizes: [Int]) {
            let path = NSTemporaryDirectory() + "/otc-e2e-\(UUID().uuidString).wav"
            defer { try? FileManager.default.removeItem(atPath: path) }
            let run = try await PromptRun([
                "--mask", "--length", "4", "--verbosity", "terse", "--rate", "450", "--audio-file", path,
            ])
            var sizes: [Int] = []
            func played(step: Int) async -> Int {
                let size = { ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0 }
                var last = size()
                var still = ContinuousClock.now
                _ = await run.process.wait(deadline: .seconds(15)) { _ in
                    let now = size()
                    if let expected { return now >= expected[step] }
                    if now != last {
                        last = now
                        still = ContinuousClock.now
                    }
                    // Grown past the previous announcement, then still for half a second.
                    return now > (sizes.last ?? 44) && ContinuousClock.now - still >= .milliseconds(500)
                }
                if expected != nil { _ = await run.process.wait(deadline: .milliseconds(50)) { _ in false } }
                return size()
            }
            sizes.append(await played(step: 0))
            for (index, character) in code.enumerated() {
                run.type(String(character))
                if index < code.count - 1 { sizes.append(await played(step: index + 1)) }
            }
            #expect(await run.exit() == .exited(0))
            #expect(run.process.standardOutput == code + "\n")
            return (Array(try Data(contentsOf: URL(fileURLWithPath: path))), sizes)
        }
        let (first, sizes) = try await audio(typing: "1234")
        let second = try await audio(typing: "9876", sizes: sizes).bytes
        #expect(first.count > 44)
        #expect(first == second, "masked audio differs between codes (\(first.count) vs \(second.count) bytes)")
    }

    @Test func unknownVoiceIsAUsageErrorWithTheTerminalRestored() async throws {
        let run = try await PromptRun(["--voice", "no-such-voice"], speech: "espeak", ready: nil)
        #expect(await run.exit() == .exited(64))
        #expect(run.process.screen.contains("no-such-voice"))
        #expect(run.terminalRestored)
    }
}

extension PromptRun {
    /// Types a digit over the opening (past the grace, while the opening, seconds of speech, is still said), then
    /// the rest of the code once the digit's echo has had time to be heard whole; the log must say that the opening
    /// began to be heard and was cut by the digit, and that the digit's echo was heard to its end. Whatever the
    /// voice: espeak-ng into a null sink, or speech-dispatcher's BEGIN and END events.
    /// - Parameter heardWhole: the voice's own word that the digit has been heard to its end, where it gives one
    ///   (speech-dispatcher's END in its log), waited for before the rest is typed; without it, 2 s.
    func expectADigitCutsTheOpeningAndIsHeardWhole(
        heardWhole: (() -> Bool)? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        #expect(await !logEntries(atLeast: 1, deadline: .seconds(10)).isEmpty, sourceLocation: sourceLocation)
        await waitPastTheGrace()
        type("9")
        #expect(
            await process.wait(deadline: .seconds(10)) { _ in !self.outcomes.isEmpty }, sourceLocation: sourceLocation)
        // The prompt logs the digit's outcome only when the next announcement is, so the voice itself is asked where it
        // can be; a loaded speech-dispatcher began "9" 1.3 s late. espeak-ng into a null sink says nothing outside:
        // "9" lasts a few hundred milliseconds, and the next digit, given well after, finds it heard whole.
        if let heardWhole {
            #expect(
                await process.wait(deadline: .seconds(20)) { _ in heardWhole() }, "the digit was never heard whole",
                sourceLocation: sourceLocation)
        } else {
            try await Task.sleep(for: .seconds(2))
        }
        type("85391")
        #expect(await exit() == .exited(0), sourceLocation: sourceLocation)
        let entries = log
        let outcomes = outcomes
        let opening = try #require(
            entries.first { $0.event == "prompt" }?.number, "\(entries)", sourceLocation: sourceLocation)
        let digit = try #require(entries.first { $0.event == "digit" }, "\(entries)", sourceLocation: sourceLocation)
        let cut = try #require(outcomes.first { $0.of == opening }, "\(outcomes)", sourceLocation: sourceLocation)
        #expect(cut.event == "cut" && cut.by == "digit", "\(outcomes)", sourceLocation: sourceLocation)
        let began = try #require(cut.began, "the opening was never heard: \(outcomes)", sourceLocation: sourceLocation)
        #expect(began <= cut.ms && cut.ms <= digit.ms + 50, "\(outcomes) \(entries)", sourceLocation: sourceLocation)
        let echo = try #require(outcomes.first { $0.of == digit.number }, "\(outcomes)", sourceLocation: sourceLocation)
        #expect(
            echo.event == "heard" && echo.began.map { $0 >= digit.ms } == true, "\(outcomes) \(entries)",
            sourceLocation: sourceLocation)
        #expect(echo.ms >= (echo.began ?? .max), "\(outcomes)", sourceLocation: sourceLocation)
    }
}
