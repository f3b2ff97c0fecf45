import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// `--speech auto`, one test per rule, chosen by the environment alone; what was chosen is the first
/// speech-log line's "speech" and the first line of `--doctor`.
@Suite(.runsPrograms, .serialized)
struct AutoSpeechEndToEndTests {
    /// The "speech" note of the log's first line.
    private func speechNote(_ run: PromptRun) -> String? {
        _ = run.logEntries(atLeast: 1)
        guard let text = try? String(contentsOfFile: run.logPath, encoding: .utf8),
            let first = text.split(separator: "\n").first,
            let object = try? JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any]
        else { return nil }
        return object["speech"] as? String
    }

    /// `otc-prompt --doctor` in `environment`: its report.
    private func doctor(_ environment: [String: String]) async throws -> String {
        let process = try PseudoTerminalProcess(
            executable: PromptRun.binary, arguments: ["--doctor"], environment: environment)
        #expect(await process.waitForExit(deadline: .seconds(20)) == .exited(0))
        return process.standardOutput
    }

    /// `otc-prompt --help` in `environment`, its wrapped lines joined.
    private func help(_ environment: [String: String]) async throws -> String {
        let process = try PseudoTerminalProcess(
            executable: PromptRun.binary, arguments: ["--help"], environment: environment)
        #expect(await process.waitForExit(deadline: .seconds(20)) == .exited(0))
        return process.standardOutput.replacingOccurrences(of: "\n    ", with: " ")
    }

    /// The test environment's PULSE_SERVER (which keeps tests off any real server) would count as audio
    /// forwarded: these runs have none.
    private func withoutAudioServer(_ extra: [String: String]) -> [String: String] {
        var environment = PromptRun.environment(extra)
        environment["PULSE_SERVER"] = nil
        return environment
    }

    @Test(arguments: [["SSH_CONNECTION": "192.0.2.1 50000 192.0.2.2 22"], ["SSH_TTY": "/dev/pts/7"]])
    func sshWithNoAudioForwardedIsText(ssh: [String: String]) async throws {
        let environment = withoutAudioServer(ssh)
        let run = try await PromptRun(["--speech", "auto"], environment: environment)
        #expect(
            speechNote(run)?.hasPrefix("text: you are not at this machine") == true,
            "\(String(describing: speechNote(run)))")
        // Text lines: the announcement itself is on the screen for the local screen reader to read.
        #expect(await run.process.waitForScreen(containing: "Verification code. Type 6 digits.", deadline: .seconds(5)))
        run.type("123456")
        #expect(await run.exit() == .exited(0))
        #expect(try await doctor(environment).hasPrefix("Speech: text, because you are not at this machine"))
        #expect(try await help(environment).contains("Here and now: text, because you are not at this machine"))
        // With PulseAudio forwarded, espeak-ng plays through it (text here: the test's PULSE_SERVER answers nothing).
        #expect(try await doctor(PromptRun.environment(ssh)).contains("PULSE_SERVER forwards audio"))
    }

    /// No speech server, no screen reader, no audio device: espeak-ng is chosen and falls back to text.
    @Test func noServerAndNoDeviceIsEspeakFallingBackToText() async throws {
        let dead = ["SPEECHD_ADDRESS": "unix_socket:/nonexistent/speechd.sock"]
        let run = try await PromptRun(["--speech", "auto"], environment: PromptRun.environment(dead))
        #expect(speechNote(run)?.hasPrefix("text: speech unavailable: no audio device") == true)
        run.type("123456")
        #expect(await run.exit() == .exited(0))
        let report = try await doctor(PromptRun.environment(dead))
        // espeak-ng was chosen, but with no device the user gets text lines, and the first line says so.
        #expect(report.hasPrefix("Speech: text, because espeak-ng was chosen (no speech server"), "\(report)")
        #expect(report.contains("speech-dispatcher does not answer at /nonexistent/speechd.sock"))
        #expect(report.contains("Audio device: none"))
    }

    @Test(
        .enabled(
            if: PrivateSpeechDispatcher.isInstalled && PrivatePulseAudio.isInstalled,
            "needs speech-dispatcher, speech-dispatcher-espeak-ng and pulseaudio (make deps)"))
    func aSpeechDispatcherThatAnswersIsUsedEvenOverSSHWhenForwarded() async throws {
        let pulse = try #require(PrivatePulseAudio.start(), "PulseAudio is installed but did not start")
        defer { pulse.stop() }
        let speechd = try #require(PrivateSpeechDispatcher.start(pulse: pulse), "speech-dispatcher did not start")
        defer { speechd.stop() }
        for extra in [[:], ["SSH_TTY": "/dev/pts/7"]] {
            let environment = speechd.clientEnvironment.merging(extra) { $1 }
            let run = try await PromptRun(["--speech", "auto"], environment: PromptRun.environment(environment))
            // Over SSH the socket counts because SPEECHD_ADDRESS forwards it, and the note says so.
            #expect(speechNote(run)?.hasPrefix("speechd: speech-dispatcher answers on its socket") == true)
            run.type("985391")
            #expect(await run.exit() == .exited(0))
            #expect(run.process.standardOutput == "985391\n")
            let report = try await doctor(PromptRun.environment(environment))
            #expect(report.hasPrefix("Speech: speechd, because speech-dispatcher answers"), "\(report)")
            #expect(report.contains("with the espeak-ng module"), "\(report)")
            #expect(
                try await help(PromptRun.environment(environment)).contains(
                    "Here and now: speechd, because speech-dispatcher answers on its socket"))
        }
        // `--audio-file` is espeak-ng writing into the file, whatever answers, and the log says so.
        let path = speechd.directory + "/speech.wav"
        let run = try await PromptRun(
            ["--speech", "auto", "--audio-file", path], environment: PromptRun.environment(speechd.clientEnvironment))
        #expect(speechNote(run) == "espeak: --audio-file: espeak-ng speaks into that file")
        run.type("985391")
        #expect(await run.exit() == .exited(0))
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        #expect(size > 44_100, "one second of speech or more: \(size) bytes")
    }

    @Test func theUsersChoiceWinsOverEveryRule() async throws {
        let run = try await PromptRun(
            ["--speech", "text"], environment: PromptRun.environment(["SSH_TTY": "/dev/pts/7"]))
        #expect(speechNote(run) == "text: chosen by --speech or the config file")
        run.type([0x1B])
        #expect(await run.exit() == .exited(130))
    }

    /// `ACCESSIBLE` (huh, gum): plain append-only lines, never the boxes, whatever the terminal could draw.
    @Test func accessibleGivesPlainAppendOnlyOutput() async throws {
        let run = try await PromptRun(
            ["--style", "boxes"],
            environment: PromptRun.environment(["ACCESSIBLE": "1", "COLORTERM": "truecolor"]))
        run.type("12")
        #expect(await run.waitForEvent("digit", count: 2), "\(run.log)")
        let drawn = run.process.screen.replacingOccurrences(of: "\u{1B}[?2004h", with: "")
        #expect(!drawn.contains("\u{1B}"), "only bracketed paste is turned on: \(drawn.debugDescription)")
        run.type([0x1B])
        #expect(await run.exit() == .exited(130))
    }

    /// As the GitHub CLI and huh's examples read it: empty, `0`, `false` and `no` are not set, so the boxes are drawn.
    @Test(arguments: ["0", "false", "no", "FALSE"])
    func accessibleSetToAFalseWordIsNotSet(value: String) async throws {
        let run = try await PromptRun(
            ["--style", "boxes"],
            environment: PromptRun.environment(["ACCESSIBLE": value, "COLORTERM": "truecolor"]))
        run.type("12")
        #expect(await run.waitForEvent("digit", count: 2), "\(run.log)")
        #expect(run.process.screen.contains("\u{2595}"), "no boxes drawn: \(run.process.screen.debugDescription)")
        run.type([0x1B])
        #expect(await run.exit() == .exited(130))
    }
}
