import Foundation
import OTCPromptTestSupport
import Testing

/// gpg-agent, ssh and sudo pass no options of ours: the config file is where their users set things, and its
/// problems are said in those modes too, with the opening (shown and spoken, once), and on stderr when stderr is
/// not the prompt's terminal.
@Suite(.runsPrograms) struct ConfigNoticeEndToEndTests {
    private let directory = NSTemporaryDirectory() + "/otc-config-notice-\(UUID().uuidString)"
    private var speechLog: String { directory + "/speech.jsonl" }

    /// A config file that sets the speech and its log, with an unknown key on line 3.
    private func environment() throws -> [String: String] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let config = directory + "/config"
        try "speech = \"text\"\nspeech-log = \"\(speechLog)\"\ncolour = \"red\"\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        return PromptRun.environment(["OTC_PROMPT_CONFIG": config])
    }

    private var spoken: String { (try? String(contentsOfFile: speechLog, encoding: .utf8)) ?? "" }

    /// Each line's `text`: what was shown (its `said` beside it repeats what the voice was handed).
    private var shownTexts: [String] {
        spoken.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["text"] as? String
        }
    }

    private func waitForSpoken(_ text: String, count: Int, _ process: PseudoTerminalProcess) -> Bool {
        let clock = ContinuousClock()
        let end = clock.now + .seconds(10)
        while clock.now < end {
            if shownTexts.joined(separator: "\n").components(separatedBy: text).count - 1 >= count { return true }
            _ = process.waitForScreen(containing: "\u{0}never", deadline: .milliseconds(20))
        }
        return false
    }

    @Test(.timeLimit(.minutes(5))) func aPinentrySaysTheFilesProblemsWithItsFirstDialogOnlyAndOnStderr() async throws {
        let environment = try environment()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script =
            #"printf 'OPTION ttyname=%s\nSETPROMPT Passphrase:\nGETPIN\nGETPIN\nBYE\n' "$(tty)" | "$0" --pinentry"#
        let run = try PseudoTerminalProcess(
            executable: "/bin/sh", arguments: ["-c", script, PromptRun.binary], environment: environment,
            standardError: .pipe)
        let problem = #":3: unknown setting \"colour\""#
        // The file's speech-log and speech apply: the opening, problem first, is in the log and on the screen.
        #expect(waitForSpoken("Passphrase", count: 1, run), "log: \(spoken)\nscreen: \(run.screen)")
        #expect(spoken.contains(problem), "\(spoken)")
        // Logged as it is said, which may come before the line is drawn.
        #expect(
            await run.waitForScreen(containing: #":3: unknown setting "colour""#, deadline: .seconds(5)),
            "\(run.screen)")
        run.type("ab")
        #expect(waitForSpoken("2 entered", count: 1, run), "\(spoken)")
        run.type("\r")
        #expect(waitForSpoken("Passphrase", count: 2, run), "\(spoken)")
        run.type("cd\r")
        #expect(await run.waitForExit(deadline: .seconds(10)) == .exited(0))
        #expect(run.standardOutput.contains("D ab\nOK\n") && run.standardOutput.contains("D cd\nOK\n"))
        let shown = #":3: unknown setting "colour""#
        #expect(shownTexts.filter { $0.contains(shown) }.count == 1, "said once: \(spoken)")
        #expect(run.standardErrorText.contains(#":3: unknown setting "colour" (known: "#), "\(run.standardErrorText)")
    }

    @Test(.timeLimit(.minutes(5))) func anAskpassPromptSaysTheFilesProblemsWithItsQuestionAndOnStderr() async throws {
        let environment = try environment()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try PseudoTerminalProcess(
            executable: PromptRun.binary, arguments: ["--askpass", "--", "[sudo] password for alice: "],
            environment: environment, standardError: .pipe)
        let problem = #":3: unknown setting \"colour\""#
        #expect(waitForSpoken("password for alice", count: 1, run), "log: \(spoken)\nscreen: \(run.screen)")
        #expect(spoken.contains(problem), "\(spoken)")
        // Said is not yet read from the pty: the screen is awaited, as a person would see it.
        #expect(
            await run.waitForScreen(containing: #":3: unknown setting "colour""#, deadline: .seconds(10)),
            "\(run.screen)")
        run.type("s3cret")
        #expect(waitForSpoken("6 entered", count: 1, run), "\(spoken)")
        run.type("\r")
        #expect(await run.waitForExit(deadline: .seconds(10)) == .exited(0))
        #expect(run.standardOutput == "s3cret\n")
        #expect(run.standardErrorText.contains(#":3: unknown setting "colour" (known: "#), "\(run.standardErrorText)")
    }
}
