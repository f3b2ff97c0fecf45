import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// `--agent` when the file of the request being asked is replaced under its name (another file renamed over it):
/// that is another request, read and asked anew, and nothing typed for the first goes to the socket it named.
@Suite(.runsPrograms) struct AgentReplacedEndToEndTests {
    let directory = AgentQuerier.directory()

    /// The replaced file is held open, as any reader may, so its removal does not end the field at once: the field
    /// stays on screen after the agent has seen its request go, and the user answers it there. The answer goes to
    /// neither querier; the second is asked, and gets its own answer.
    @Test func anAnswerTypedForAFileReplacedUnderItsNameGoesToNoSocket() async throws {
        let run = try await PromptRun(
            ["--agent", "--agent-directory", directory], ready: "Waiting for password requests")
        let first = try AgentQuerier(
            in: directory, name: "ask.same", lines: ["PID=\(getpid())", "Message=Request A"])
        #expect(await run.process.waitForScreen(containing: "Request A", deadline: .seconds(20)))
        await run.waitPastTheGrace()
        let held = open(first.askPath, O_RDONLY | O_CLOEXEC)
        try #require(held >= 0)
        defer { close(held) }
        let second = try AgentQuerier(
            in: directory, name: "ask.same", lines: ["PID=\(getpid())", "Message=Request B"])
        // The agent reads the directory's change as soon as it comes; nothing on screen says so while A's field is
        // open, so this is a bounded settle, far longer than one turn of its loop.
        try await Task.sleep(for: .milliseconds(800))
        run.type("typed for A\r")
        #expect(await run.process.waitForScreen(containing: "Request B", deadline: .seconds(20)))
        #expect(!first.hasAnswer, "A's answer went to the socket the replaced file named")
        await run.waitPastTheGrace()
        // After a switch the keys are held until B has been heard and the keys have stopped for
        // `TypeAheadRule.switchQuiet` (1.5 s, from the last key read, which was before B was shown). Nothing says
        // when a hold that dropped nothing ends, so this waits it out, with as much again for a loaded machine's
        // timer: a lower bound, not a guess at how long something takes.
        try await Task.sleep(for: .milliseconds(3000))
        run.type("for B\r")
        #expect(await second.answer() == "+for B")
        #expect(!first.hasAnswer)
        withExtendedLifetime(first) {}
    }
}
