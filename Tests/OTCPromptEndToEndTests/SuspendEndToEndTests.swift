import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// Ctrl-Z at a real interactive bash: where the stop would be dropped it says so and keeps the field;
/// as a job it stops and `fg` brings it back.
@Suite(.runsPrograms, .serialized) struct SuspendEndToEndTests {
    /// `bash -i` on a pty of its own (its session, its terminal), no profile, "$ " as its prompt.
    private func interactiveShell() throws -> PseudoTerminalProcess {
        let shell = try PseudoTerminalProcess(
            executable: "/bin/bash", arguments: ["--norc", "--noprofile", "-i"],
            environment: PromptRun.environment(["PS1": "$ "]))
        #expect(shell.waitForScreen(containing: "$ ", deadline: .seconds(10)))
        return shell
    }

    /// The speech log's events, once it holds at least `count` of `event` (bounded).
    private func events(in path: String, atLeast count: Int, of event: String) -> [String] {
        let clock = ContinuousClock()
        let end = clock.now + .seconds(10)
        while true {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            // The outcome lines (how each announcement was heard) are not announcements.
            let events = text.split(separator: "\n").filter { !$0.contains("\"of\": ") }.compactMap { line in
                line.firstMatch(of: /"event": ?"([a-z-]+)"/).map { String($0.1) }
            }
            if events.filter({ $0 == event }).count >= count || clock.now >= end { return events }
            usleep(10_000)
        }
    }

    /// Waits until the screen shows `text` `count` times.
    private func waitForScreen(_ shell: PseudoTerminalProcess, showing text: String, times count: Int) -> Bool {
        let clock = ContinuousClock()
        let end = clock.now + .seconds(10)
        while clock.now < end {
            if shell.screen.components(separatedBy: text).count - 1 >= count { return true }
            usleep(10_000)
        }
        return false
    }

    @Test func controlZInACommandSubstitutionSaysItCannotBeSuspendedAndKeepsTheField() async throws {
        let log = NSTemporaryDirectory() + "/otc-e2e-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let shell = try interactiveShell()
        shell.type("code=$(\(PromptRun.binary) --speech text --speech-log \(log) 'Substituted code')\r")
        #expect(await shell.waitForScreen(containing: "Substituted code", deadline: .seconds(10)))
        shell.type("98")
        #expect(events(in: log, atLeast: 2, of: "digit").filter { $0 == "digit" }.count == 2)
        shell.type([0x1A])
        #expect(await shell.waitForScreen(containing: "cannot be suspended here", deadline: .seconds(10)))
        shell.type("5391")
        #expect(events(in: log, atLeast: 1, of: "complete").contains("complete"))
        #expect(waitForScreen(shell, showing: "$ ", times: 2), "the shell's prompt never came back")
        shell.type("echo \"got=$code\"\r")
        // The harness gives bash a pipe as stdout: echo's line arrives there.
        #expect(await shell.waitForStandardOutput(containing: "got=985391", deadline: .seconds(10)), "\(shell.screen)")
        let said = events(in: log, atLeast: 1, of: "complete")
        #expect(said.filter { $0 == "prompt" }.count == 1, "the prompt was not announced again: \(said)")
        #expect(said.filter { $0 == "notice" }.count == 1)
        shell.type("exit\r")
        _ = await shell.waitForExit(deadline: .seconds(10))
    }

    @Test func controlZInAJobOfTheShellStopsItAndFgResumesIt() async throws {
        let log = NSTemporaryDirectory() + "/otc-e2e-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let shell = try interactiveShell()
        shell.type("\(PromptRun.binary) --speech text --speech-log \(log) 'Job code'\r")
        #expect(await shell.waitForScreen(containing: "Job code", deadline: .seconds(10)))
        shell.type("12")
        #expect(events(in: log, atLeast: 2, of: "digit").filter { $0 == "digit" }.count == 2)
        shell.type([0x1A])
        #expect(await shell.waitForScreen(containing: "Stopped", deadline: .seconds(10)), "screen: \(shell.screen)")
        shell.type("fg\r")
        #expect(events(in: log, atLeast: 2, of: "prompt").filter { $0 == "prompt" }.count == 2, "announced on fg")
        shell.type("3456")
        #expect(await shell.waitForStandardOutput(containing: "123456", deadline: .seconds(10)), "\(shell.screen)")
        #expect(!events(in: log, atLeast: 1, of: "complete").contains("notice"))
        shell.type("exit\r")
        _ = await shell.waitForExit(deadline: .seconds(10))
    }
}
