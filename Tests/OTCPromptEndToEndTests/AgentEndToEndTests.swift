import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// `--agent` on a pty, watching a request directory of the test's own (`--agent-directory`), with requests the
/// test writes as systemd's queriers do (`AgentQuerier`). The real systemd-ask-password: `AgentSystemdEndToEndTests`.
@Suite(.runsPrograms) struct AgentEndToEndTests {
    let directory = AgentQuerier.directory()

    private func agent(_ extra: [String] = [], ready: String? = "Waiting for password requests") async throws
        -> PromptRun
    {
        try await PromptRun(["--agent", "--agent-directory", directory] + extra, ready: ready)
    }

    private func said(_ run: PromptRun, _ text: String, deadline: Duration = .seconds(20)) async -> Bool {
        await run.process.wait(deadline: deadline) { _ in run.log.contains { $0.text.contains(text) } }
    }

    @Test func aRequestIsAskedMaskedAndItsSecretGoesOnlyToItsSocket() async throws {
        let run = try await agent()
        let querier = try AgentQuerier(
            in: directory, lines: ["PID=\(getpid())", "Echo=0", "Message=Passphrase for backup"])
        #expect(await run.process.waitForScreen(containing: "Passphrase for backup", deadline: .seconds(20)))
        await run.waitPastTheGrace()
        run.type("hunter2 horse\r")
        #expect(await querier.answer() == "+hunter2 horse")
        #expect(await said(run, "Waiting for password requests", deadline: .seconds(20)))
        #expect(!run.process.screen.contains("hunter2"))
        #expect(!run.log.contains { $0.text.contains("hunter2") })
        run.process.sendSignal(SIGTERM)
        #expect(await run.exit() == .signaled(SIGTERM))
        #expect(run.terminalRestored)
    }

    @Test func escCancelsTheRequestWithAMinus() async throws {
        let run = try await agent()
        let querier = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=Unlock the vault"])
        #expect(await run.process.waitForScreen(containing: "Unlock the vault", deadline: .seconds(20)))
        await run.waitPastTheGrace()
        run.type([0x1B])
        #expect(await querier.answer() == "-")
    }

    /// In raw mode Esc, Ctrl-C and Ctrl-D are keys: on the wait they stop the agent, or nothing could.
    @Test(arguments: [[UInt8(0x1B)], [0x03], [0x04]])
    func aClosingKeyOnTheWaitStopsTheAgent(key: [UInt8]) async throws {
        let run = try await agent()
        #expect(await said(run, "Escape stops the agent"))
        await run.waitPastTheGrace()
        run.type(key)
        #expect(await run.exit() == .exited(0))
        #expect(await said(run, "Agent stopped"))
        #expect(run.terminalRestored)
    }

    /// The agent's relay is its own, not a gpg-agent sharing its process group: Ctrl-Z stops it as any job. Here,
    /// in a session of its own that nothing could resume, it says so, and never blames a gpg-agent.
    @Test func ctrlZOnTheAgentIsAJobsNotAGpgAgentsRefusal() async throws {
        let run = try await agent()
        await run.waitPastTheGrace()
        run.type([0x1A])
        #expect(await said(run, "nothing could resume it"), "log: \(run.log)")
        #expect(!run.log.contains { $0.text.contains("gpg-agent") })
        run.type([0x1B])
        #expect(await run.exit() == .exited(0))
        #expect(run.terminalRestored)
    }

    @Test func keysTypedBeforeARequestAppearsAreNoAnswer() async throws {
        let run = try await agent()
        run.type("leftover\r")
        let querier = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=Fresh question"])
        #expect(await run.process.waitForScreen(containing: "Fresh question", deadline: .seconds(20)))
        #expect(!querier.hasAnswer)
        await run.waitPastTheGrace()
        run.type("typed after\r")
        #expect(await querier.answer() == "+typed after")
    }

    @Test func twoRequestsAreAskedOldestFirstSayingHowManyWait() async throws {
        // Ordered by name too: requests made within one tick of the file system's clock are taken by name.
        let first = try AgentQuerier(
            in: directory, name: "ask.1-first", lines: ["PID=\(getpid())", "Message=First request"])
        let second = try AgentQuerier(
            in: directory, name: "ask.2-second", lines: ["PID=\(getpid())", "Message=Second request"])
        let run = try await agent(ready: "First request")
        #expect(await said(run, "1 more waiting."))
        await run.waitPastTheGrace()
        run.type("one\r")
        #expect(await first.answer() == "+one")
        #expect(await run.process.waitForScreen(containing: "Second request", deadline: .seconds(20)))
        await run.waitPastTheGrace()
        run.type("two\r")
        #expect(await second.answer() == "+two")
    }

    @Test func aRequestArrivingWhileTheUserTypesWaitsAndTakesNoneOfTheirKeys() async throws {
        let run = try await agent()
        let first = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=First request"])
        #expect(await run.process.waitForScreen(containing: "First request", deadline: .seconds(20)))
        await run.waitPastTheGrace()
        run.type("abc")
        let second = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=Second request"])
        run.type("def\r")
        #expect(await first.answer() == "+abcdef")
        #expect(!second.hasAnswer)
        #expect(await run.process.waitForScreen(containing: "Second request", deadline: .seconds(20)))
        await run.waitPastTheGrace()
        run.type([0x1B])
        #expect(await second.answer() == "-")
    }

    @Test func aRequestWhoseFileIsRemovedEndsWithTheWordAndNothingIsSent() async throws {
        let run = try await agent()
        let querier = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=Going away"])
        #expect(await run.process.waitForScreen(containing: "Going away", deadline: .seconds(20)))
        unlink(querier.askPath)
        #expect(await said(run, "Request withdrawn."))
        #expect(!querier.hasAnswer)
    }

    @Test func aRequestWhoseProcessEndsIsWithdrawn() async throws {
        let sleeper = try SpawnedProgram("/bin/sleep", ["60"], environment: [:])
        let run = try await agent()
        let querier = try AgentQuerier(
            in: directory, lines: ["PID=\(sleeper.processID)", "Message=Asked by sleep"])
        #expect(await run.process.waitForScreen(containing: "Asked by sleep", deadline: .seconds(20)))
        // SIGKILL, not reaped yet: a zombie's request is withdrawn too (its pidfd is readable).
        kill(sleeper.processID, SIGKILL)
        #expect(await said(run, "Request withdrawn."))
        #expect(!querier.hasAnswer)
    }

    @Test func aRequestWhoseTimePassesIsWithdrawnAndItsTimeLeftIsSaid() async throws {
        let run = try await agent()
        let querier = try AgentQuerier(
            in: directory,
            lines: ["PID=\(getpid())", "NotAfter=\(AgentQuerier.notAfter(seconds: 3))", "Message=Quick one"])
        #expect(await run.process.waitForScreen(containing: "Quick one", deadline: .seconds(20)))
        #expect(await said(run, "Request withdrawn.", deadline: .seconds(20)))
        #expect(!querier.hasAnswer)
    }

    @Test func expiredAndOrphanedRequestsAreNotAskedAtAll() async throws {
        let expired = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "NotAfter=1", "Message=Expired"])
        let orphan = try AgentQuerier(in: directory, lines: ["PID=999999999", "Message=Orphaned"])
        let run = try await agent()
        #expect(!run.process.screen.contains("Expired") && !run.process.screen.contains("Orphaned"))
        #expect(!expired.hasAnswer && !orphan.hasAnswer)
    }

    @Test func queryAnswersWhatIsWaitingThenExits() async throws {
        let querier = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=Pending one"])
        let run = try await agent(["--query"], ready: "Pending one")
        await run.waitPastTheGrace()
        run.type("yes\r")
        #expect(await querier.answer() == "+yes")
        #expect(await run.exit() == .exited(0), "screen: \(run.process.screen) log: \(run.log)")
        // Answered: its querier removes the file, as systemd-ask-password does.
        unlink(querier.askPath)
        let empty = try await agent(["--query"], ready: nil)
        #expect(await empty.exit() == .exited(0))
    }

    @Test func otcPromptsOwnQuestionIsAnsweredYes() async throws {
        let run = try await agent()
        let querier = try AgentQuerier(
            in: directory, lines: ["PID=\(getpid())", "X-OTC-Kind=question", "Message=Allow the key?"])
        #expect(await run.process.waitForScreen(containing: "Allow the key?", deadline: .seconds(20)))
        await run.waitPastTheGrace()
        run.type("yes\r")
        #expect(await querier.answer() == "+yes")
    }
}
