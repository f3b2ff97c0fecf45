import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// `--agent` on a pty, watching a request directory of the test's own (`--agent-directory`), with requests the
/// test writes as systemd's queriers do (`AgentQuerier`). The real systemd-ask-password: `AgentSystemdEndToEndTests`.
@Suite struct AgentEndToEndTests {
    let directory = AgentQuerier.directory()

    private func agent(_ extra: [String] = [], ready: String? = "Waiting for password requests") throws -> PromptRun {
        try PromptRun(["--agent", "--agent-directory", directory] + extra, ready: ready)
    }

    private func said(_ run: PromptRun, _ text: String, deadline: Duration = .seconds(20)) -> Bool {
        run.process.wait(deadline: deadline) { _ in run.logEntries().contains { $0.text.contains(text) } }
    }

    @Test func aRequestIsAskedMaskedAndItsSecretGoesOnlyToItsSocket() throws {
        let run = try agent()
        let querier = try AgentQuerier(
            in: directory, lines: ["PID=\(getpid())", "Echo=0", "Message=Passphrase for backup"])
        #expect(run.process.waitForScreen(containing: "Passphrase for backup", deadline: .seconds(20)))
        run.waitPastTheGrace()
        run.type("hunter2 horse\r")
        #expect(querier.answer() == "+hunter2 horse")
        #expect(said(run, "Waiting for password requests", deadline: .seconds(20)))
        #expect(!run.process.screen.contains("hunter2"))
        #expect(!run.logEntries().contains { $0.text.contains("hunter2") })
        run.process.sendSignal(SIGTERM)
        #expect(run.exit() == .signaled(SIGTERM))
        #expect(run.terminalRestored)
    }

    @Test func escCancelsTheRequestWithAMinus() throws {
        let run = try agent()
        let querier = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=Unlock the vault"])
        #expect(run.process.waitForScreen(containing: "Unlock the vault", deadline: .seconds(20)))
        run.waitPastTheGrace()
        run.type([0x1B])
        #expect(querier.answer() == "-")
    }

    @Test func keysTypedBeforeARequestAppearsAreNoAnswer() throws {
        let run = try agent()
        run.type("leftover\r")
        let querier = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=Fresh question"])
        #expect(run.process.waitForScreen(containing: "Fresh question", deadline: .seconds(20)))
        #expect(!querier.hasAnswer)
        run.waitPastTheGrace()
        run.type("typed after\r")
        #expect(querier.answer() == "+typed after")
    }

    @Test func twoRequestsAreAskedOldestFirstSayingHowManyWait() throws {
        let first = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=First request"])
        let second = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=Second request"])
        let run = try agent(ready: "First request")
        #expect(said(run, "1 more waiting."))
        run.waitPastTheGrace()
        run.type("one\r")
        #expect(first.answer() == "+one")
        #expect(run.process.waitForScreen(containing: "Second request", deadline: .seconds(20)))
        run.waitPastTheGrace()
        run.type("two\r")
        #expect(second.answer() == "+two")
    }

    @Test func aRequestArrivingWhileTheUserTypesWaitsAndTakesNoneOfTheirKeys() throws {
        let run = try agent()
        let first = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=First request"])
        #expect(run.process.waitForScreen(containing: "First request", deadline: .seconds(20)))
        run.waitPastTheGrace()
        run.type("abc")
        let second = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=Second request"])
        run.type("def\r")
        #expect(first.answer() == "+abcdef")
        #expect(!second.hasAnswer)
        #expect(run.process.waitForScreen(containing: "Second request", deadline: .seconds(20)))
        run.waitPastTheGrace()
        run.type([0x1B])
        #expect(second.answer() == "-")
    }

    @Test func aRequestWhoseFileIsRemovedEndsWithTheWordAndNothingIsSent() throws {
        let run = try agent()
        let querier = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=Going away"])
        #expect(run.process.waitForScreen(containing: "Going away", deadline: .seconds(20)))
        unlink(querier.askPath)
        #expect(said(run, "Request withdrawn."))
        #expect(!querier.hasAnswer)
    }

    @Test func aRequestWhoseProcessEndsIsWithdrawn() throws {
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["60"]
        try sleeper.run()
        let run = try agent()
        let querier = try AgentQuerier(
            in: directory, lines: ["PID=\(sleeper.processIdentifier)", "Message=Asked by sleep"])
        #expect(run.process.waitForScreen(containing: "Asked by sleep", deadline: .seconds(20)))
        // SIGKILL, not reaped yet: a zombie's request is withdrawn too (its pidfd is readable).
        kill(sleeper.processIdentifier, SIGKILL)
        #expect(said(run, "Request withdrawn."))
        #expect(!querier.hasAnswer)
    }

    @Test func aRequestWhoseTimePassesIsWithdrawnAndItsTimeLeftIsSaid() throws {
        let run = try agent()
        let querier = try AgentQuerier(
            in: directory,
            lines: ["PID=\(getpid())", "NotAfter=\(AgentQuerier.notAfter(seconds: 3))", "Message=Quick one"])
        #expect(run.process.waitForScreen(containing: "Quick one", deadline: .seconds(20)))
        #expect(said(run, "Request withdrawn.", deadline: .seconds(20)))
        #expect(!querier.hasAnswer)
    }

    @Test func expiredAndOrphanedRequestsAreNotAskedAtAll() throws {
        let expired = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "NotAfter=1", "Message=Expired"])
        let orphan = try AgentQuerier(in: directory, lines: ["PID=999999999", "Message=Orphaned"])
        let run = try agent()
        #expect(!run.process.screen.contains("Expired") && !run.process.screen.contains("Orphaned"))
        #expect(!expired.hasAnswer && !orphan.hasAnswer)
    }

    @Test func queryAnswersWhatIsWaitingThenExits() throws {
        let querier = try AgentQuerier(in: directory, lines: ["PID=\(getpid())", "Message=Pending one"])
        let run = try agent(["--query"], ready: "Pending one")
        run.waitPastTheGrace()
        run.type("yes\r")
        #expect(querier.answer() == "+yes")
        #expect(run.exit() == .exited(0))
        // Answered: its querier removes the file, as systemd-ask-password does.
        unlink(querier.askPath)
        let empty = try agent(["--query"], ready: nil)
        #expect(empty.exit() == .exited(0))
    }

    @Test func otcPromptsOwnQuestionIsAnsweredYes() throws {
        let run = try agent()
        let querier = try AgentQuerier(
            in: directory, lines: ["PID=\(getpid())", "X-OTC-Kind=question", "Message=Allow the key?"])
        #expect(run.process.waitForScreen(containing: "Allow the key?", deadline: .seconds(20)))
        run.waitPastTheGrace()
        run.type("yes\r")
        #expect(querier.answer() == "+yes")
    }
}
