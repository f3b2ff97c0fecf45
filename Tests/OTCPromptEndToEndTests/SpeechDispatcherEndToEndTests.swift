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
        let speechd = try #require(
            PrivateSpeechDispatcher.start(pulse: pulse), "speech-dispatcher is installed but did not start")
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
            #expect(await !run.logEntries(atLeast: 1, deadline: .seconds(10)).isEmpty)
            await run.waitPastTheGrace()
            run.type("9")
            #expect(await run.process.wait(deadline: .seconds(10)) { _ in !run.outcomes.isEmpty })
            try await Task.sleep(for: .seconds(2))
            run.type("85391")
            #expect(await run.exit() == .exited(0))
            let entries = run.log
            let outcomes = run.outcomes
            let opening = try #require(entries.first { $0.event == "prompt" }?.number, "\(entries)")
            let digit = try #require(entries.first { $0.event == "digit" }, "\(entries)")
            let cut = try #require(outcomes.first { $0.of == opening }, "\(outcomes)")
            #expect(cut.event == "cut" && cut.by == "digit", "\(outcomes)")
            let began = try #require(cut.began, "the opening was never heard: \(outcomes)")
            #expect(began <= cut.ms && cut.ms <= digit.ms + 50, "\(outcomes) \(entries)")
            let echo = try #require(outcomes.first { $0.of == digit.number }, "\(outcomes)")
            #expect(echo.event == "heard" && echo.began.map { $0 >= digit.ms } == true, "\(outcomes) \(entries)")
            #expect(echo.ms >= (echo.began ?? .max), "\(outcomes)")
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
