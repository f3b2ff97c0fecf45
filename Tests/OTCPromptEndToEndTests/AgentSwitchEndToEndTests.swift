import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// `--agent` when a request ends under the user's fingers (its time passes, its querier withdraws it, another agent
/// answers it): no key typed for it reaches the next request or stops the agent, and the drop is said. And the
/// queue's news while a field is open: a request that arrives is said at once, a readback says what waits.
@Suite(.runsPrograms) struct AgentSwitchEndToEndTests {
    let directory = AgentQuerier.directory()

    private func agent() async throws -> PromptRun {
        try await PromptRun(["--agent", "--agent-directory", directory], ready: "Waiting for password requests")
    }

    private func said(_ run: PromptRun, _ text: String, deadline: Duration = .seconds(20)) async -> Bool {
        await run.process.wait(deadline: deadline) { _ in run.log.contains { $0.text.contains(text) } }
    }

    /// The attack: the user types A's password by ear, a key every 0.45 s; A's time passes mid-password and B, which
    /// a program timed to follow it, is asked at once. None of A's keys, nor its Enter, reach B; the drop is said once
    /// the user stops; what they type after is B's answer, whole.
    @Test func aListenersKeysForARequestThatEndsNeverReachTheNext() async throws {
        let run = try await agent()
        let first = try AgentQuerier(
            in: directory,
            lines: ["PID=\(getpid())", "NotAfter=\(AgentQuerier.notAfter(seconds: 4))", "Message=Request A"])
        #expect(await run.process.waitForScreen(containing: "Request A", deadline: .seconds(20)))
        let second = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=Request B"])
        await run.waitPastTheGrace()
        // A listener's pace, the scenario itself (not a wait for an event): on through A's end and B's opening.
        for key in "correct horse battery\r" {
            run.type(String(key))
            try await Task.sleep(for: .milliseconds(450))
        }
        #expect(await said(run, "Request withdrawn."))
        #expect(await said(run, "keys were dropped."), "log: \(run.log.map(\.text))")
        #expect(!first.hasAnswer && !second.hasAnswer, "a key of A's reached B")
        #expect(run.process.screen.contains("Request B"))
        run.type("B's own\r")
        #expect(await second.answer() == "+B's own")
    }

    /// Two agents run and the other answers first: an Esc pressed just after "Request withdrawn." was meant for that
    /// request, and neither cancels the wait nor stops this agent.
    @Test func escapeJustAfterAWithdrawalDoesNotStopTheAgent() async throws {
        let run = try await agent()
        let querier = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=Answered elsewhere"])
        #expect(await run.process.waitForScreen(containing: "Answered elsewhere", deadline: .seconds(20)))
        await run.waitPastTheGrace()
        run.type("abc")
        unlink(querier.askPath)
        #expect(await said(run, "Request withdrawn."))
        run.type([0x1B])
        #expect(await said(run, "1 key was dropped."), "log: \(run.log.map(\.text))")
        #expect(!run.process.hasExited, "the Esc stopped the agent")
        #expect(!run.log.contains { $0.text.contains("Agent stopped") })
        let next = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=The next one"])
        #expect(await run.process.waitForScreen(containing: "The next one", deadline: .seconds(20)))
        await run.waitPastTheGrace()
        run.type("ok\r")
        #expect(await next.answer() == "+ok")
    }

    /// A request that arrives while the user answers another is said at once, in short, and takes none of the
    /// field's keys; a readback says how many wait and for what, counted then; the next request's count is true.
    @Test func aRequestArrivingMidFieldIsSaidAtOnceAndReadBackWithTheQueue() async throws {
        let run = try await agent()
        let first = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=First request"])
        #expect(await run.process.waitForScreen(containing: "First request", deadline: .seconds(20)))
        await run.waitPastTheGrace()
        run.type("abc")
        let second = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=Backup passphrase"])
        #expect(await said(run, "New request waiting: Backup passphrase."), "log: \(run.log.map(\.text))")
        #expect(run.process.screen.contains("New request waiting: Backup passphrase."))
        run.type([0x12])
        #expect(await said(run, "1 more waiting: Backup passphrase."), "log: \(run.log.map(\.text))")
        let third = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=Third one"])
        #expect(await said(run, "New request waiting: Third one."))
        unlink(third.askPath)
        run.type([0x12])
        #expect(
            await run.process.wait(deadline: .seconds(20)) { _ in
                run.log.filter { $0.text.contains("1 more waiting: Backup passphrase.") }.count == 2
            }, "the withdrawn one is not counted: \(run.log.map(\.text))")
        run.type("def\r")
        #expect(await first.answer() == "+abcdef")
        #expect(await run.process.waitForScreen(containing: "Backup passphrase", deadline: .seconds(20)))
        let opening = run.log.last { $0.event == "prompt" }?.text ?? ""
        #expect(!opening.contains("more waiting"), "nothing else waits: \(opening)")
        await run.waitPastTheGrace()
        run.type([0x1B])
        #expect(await second.answer() == "-")
    }

    /// A key on the wait says what it did: nothing is there to answer.
    @Test func aKeyOnTheWaitSaysThereIsNothingToAnswer() async throws {
        let run = try await agent()
        await run.waitPastTheGrace()
        run.type("x")
        #expect(await said(run, "No request to answer. Escape stops the agent."))
        run.type("?")
        #expect(
            await run.process.wait(deadline: .seconds(20)) { _ in
                run.log.filter { $0.text.hasPrefix("Waiting for password requests") }.count == 2
            })
        #expect(!run.process.hasExited)
    }
}
