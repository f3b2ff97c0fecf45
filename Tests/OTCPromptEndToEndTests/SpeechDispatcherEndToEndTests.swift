import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// `--speech speechd` end to end: the built binary on a pty, a speech-dispatcher of the test's own.
@Suite(
    .runsPrograms,
    .serialized,
    .enabled(
        if: PrivateSpeechDispatcher.isInstalled && PrivatePulseAudio.isInstalled,
        "needs speech-dispatcher, speech-dispatcher-espeak-ng, pulseaudio, parec and sox (make deps)"))
struct SpeechDispatcherEndToEndTests {
    func withServer(_ body: (PrivateSpeechDispatcher) async throws -> Void) async throws {
        let pulse = try #require(PrivatePulseAudio.start(), "PulseAudio is installed but did not start")
        defer { pulse.stop() }
        // Logging at level 5: the server's replies and events, which a test reads back.
        let speechd = try #require(
            PrivateSpeechDispatcher.start(pulse: pulse, logLevel: 5), "speech-dispatcher is installed but did not start")
        defer { speechd.stop() }
        try await body(speechd)
    }

    @Test func aCodeTypedWithSpeechdIsHeardOnTheSinkAndPrinted() async throws {
        try await withServer { speechd in
            var screen = ""
            let rms = try await speechd.pulse.recordingRMS(to: speechd.directory + "/monitor.raw") {
                let run = try await PromptRun(
                    [], environment: PromptRun.environment(speechd.clientEnvironment), speech: "speechd")
                run.type("985391")
                #expect(await run.exit() == .exited(0))
                #expect(run.process.standardOutput == "985391\n")
                screen = run.process.screen
                // The process has gone; the server plays the final announcement on, and the recording waits for it.
            }
            #expect(rms > 0.001, "nothing was heard on the null sink")
            #expect(!screen.contains("speech-dispatcher"), "\(screen.debugDescription)")
        }
    }

    @Test func aServerKilledMidPromptLeavesTextAnnouncementsWithOneNoticeAndNoKeyLost() async throws {
        try await withServer { speechd in
            let run = try await PromptRun(
                [], environment: PromptRun.environment(speechd.clientEnvironment), speech: "speechd")
            run.type("98")
            #expect(await run.logEntries(atLeast: 3).count >= 3)
            usleep(200_000)
            speechd.kill()
            usleep(100_000)
            run.type("5391")
            #expect(await run.exit() == .exited(0))
            #expect(run.process.standardOutput == "985391\n")
            let screen = run.process.screen
            #expect(screen.components(separatedBy: "stopped answering").count == 2, "\(screen.debugDescription)")
            // Each key after the kill is shown as its own text line (the field is redrawn after it).
            for digit in ["5", "3", "9"] { #expect(screen.contains("\(digit)\r\n"), "\(digit) was not shown") }
            #expect(screen.contains("1, code complete"))
            #expect(await run.logEntries().filter { $0.event == "digit" }.count == 5)
        }
    }

    /// The log read back as the listener heard it through speech-dispatcher (its BEGIN and END events, read while it
    /// speaks): the opening began to be heard and was cut by the digit, whose echo was heard to its end.
    @Test func theLogSaysWhenSpeechdBeganToSayTheOpeningThatTheDigitCutItAndThatTheDigitWasHeard() async throws {
        try await withServer { speechd in
            let run = try await PromptRun(
                [], environment: PromptRun.environment(speechd.clientEnvironment), speech: "speechd")
            // The server's own END (702) for the digit's message, in its log.
            try await run.expectADigitCutsTheOpeningAndIsHeardWhole {
                let log = SpeechDispatcherLog(path: speechd.logPath)
                guard let ours = log.client(named: "otc-prompt"), let digit = log.message(of: ours, containing: "9")
                else { return false }
                return log.time(of: 702, for: digit) != nil
            }
        }
    }

    @Test func withNoServerSpeechdSaysWhyAndShowsText() async throws {
        let run = try await PromptRun(
            [], environment: PromptRun.environment(["SPEECHD_ADDRESS": "unix_socket:/nonexistent/speechd.sock"]),
            speech: "speechd")
        // The prompt is drawn before speech-dispatcher is asked; keys typed after the fallback are lines.
        #expect(await run.process.waitForScreen(containing: "speech-dispatcher does not answer", deadline: .seconds(5)))
        run.type("985391")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.screen.contains("\r\n9\r\n8\r\n5\r\n"))
    }
}
