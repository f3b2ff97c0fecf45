import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// The built binary with no terminal at all (a session of its own, stdin not a terminal), as a detached ssh-agent or
/// gpg-agent runs it: the question is posted for a password agent in the run's own XDG_RUNTIME_DIR, and a stand-in
/// agent answers it. The real clients are in OTCPromptLoginTests (`AgentCallers`).
@Suite(.runsPrograms) final class AgentPostingEndToEndTests {
    /// A runtime directory with a short path, as /run/user/UID is: a socket's path has at most 107 bytes.
    let runtime: String
    let environment: [String: String]
    let agent: StandInAgent

    init() throws {
        var template = Array("/tmp/otc-ask-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(.EIO) }
        runtime = String(cString: made)
        environment = PromptRun.environment(["XDG_RUNTIME_DIR": runtime])
        agent = StandInAgent(runtimeDirectory: runtime)
    }

    deinit { try? FileManager.default.removeItem(atPath: runtime) }

    private func askpass(_ prompt: String, options: [String] = [], extra: [String: String] = [:]) throws
        -> PseudoTerminalProcess
    {
        var environment = environment
        environment.merge(extra) { $1 }
        return try PseudoTerminalProcess(
            executable: PromptRun.binary, arguments: ["--askpass", "--speech", "none"] + options + ["--", prompt],
            environment: environment, terminal: false)
    }

    @Test func anAskpassPasswordIsPostedForAnyAgentAndItsAnswerPrinted() async throws {
        let process = try askpass("[sudo] password for joe: ")
        let question = try #require(
            await agent.waitForQuestion(in: agent.systemdDirectory), "nothing posted: \(process.standardErrorText)")
        #expect(question.keys["Echo"] == "0")
        #expect(question.keys["Message"]?.contains("password for joe") == true, "\(question.text)")
        #expect(agent.answer(question, with: "+correct horse"))
        #expect(await process.waitForExit(deadline: .seconds(10)) == .exited(0))
        #expect(process.standardOutput == "correct horse\n")
        #expect(await agent.waitUntilEmpty(), "left: \(agent.leftovers)")
    }

    @Test func aConfirmationIsPostedOnlyWhereOtcPromptsAgentReadsIt() async throws {
        let process = try askpass("Allow use of key id_ed25519?", extra: ["SSH_ASKPASS_PROMPT": "confirm"])
        let question = try #require(await agent.waitForQuestion(), "nothing posted: \(process.standardErrorText)")
        #expect(question.path.hasPrefix(agent.otcPromptDirectory + "/"))
        #expect(!FileManager.default.fileExists(atPath: agent.systemdDirectory), "nothing in systemd's directory")
        #expect(agent.answer(question, with: "+yes"))
        #expect(await process.waitForExit(deadline: .seconds(10)) == .exited(0))
        #expect(await agent.waitUntilEmpty(), "left: \(agent.leftovers)")
    }

    @Test func noAnswerWithinTheLimitIsACancelAndSaysWhy() async throws {
        let process = try askpass("Password: ", options: ["--timeout", "1"])
        #expect(await agent.waitForQuestion() != nil, "nothing posted: \(process.standardErrorText)")
        #expect(await process.waitForExit(deadline: .seconds(10)) == .exited(130))
        #expect(process.standardOutput == "")
        #expect(process.standardErrorText.contains("no password agent answered within 1 s"))
        #expect(await agent.waitUntilEmpty(), "left: \(agent.leftovers)")
    }

    /// An askpass killed with SIGKILL leaves its question; the next one removes it before posting its own.
    @Test func whatAKilledAskpassLeftIsRemovedByTheNext() async throws {
        let killed = try askpass("Password: ")
        let left = try #require(await agent.waitForQuestion(), "nothing posted: \(killed.standardErrorText)")
        killed.sendSignal(SIGKILL)
        #expect(await killed.waitForExit(deadline: .seconds(10)) != nil)
        #expect(FileManager.default.fileExists(atPath: left.path), "SIGKILL leaves it")
        let next = try askpass("Password: ")
        let posted = try #require(
            await waitUntilPosted { $0.path != left.path }, "nothing posted: \(next.standardErrorText)")
        #expect(!FileManager.default.fileExists(atPath: left.path))
        #expect(!FileManager.default.fileExists(atPath: left.socket))
        #expect(agent.answer(posted, with: "-"))
        #expect(await next.waitForExit(deadline: .seconds(10)) == .exited(130))
        #expect(await agent.waitUntilEmpty(), "left: \(agent.leftovers)")
    }

    /// A poster in another PID namespace (a container that shares XDG_RUNTIME_DIR) finds a live question whose PID
    /// means nothing there: it leaves it, as it leaves every request it cannot prove it made and lost.
    @Test(.enabled(if: Namespaces.available(["--pid", "--fork", "--mount-proc"]), "needs root and PID namespaces"))
    func aPosterInAnotherPIDNamespaceLeavesALiveQuestionAlone() async throws {
        let host = try askpass("Host password: ")
        let live = try #require(
            await agent.waitForQuestion(in: agent.systemdDirectory), "nothing posted: \(host.standardErrorText)")
        let contained = try PseudoTerminalProcess(
            executable: "/usr/bin/unshare",
            arguments: [
                "--pid", "--fork", "--mount-proc", PromptRun.binary, "--askpass", "--speech", "none", "--",
                "Container password: ",
            ], environment: environment, terminal: false)
        let theirs = try #require(
            await waitUntilPosted { $0.path != live.path }, "nothing posted: \(contained.standardErrorText)")
        #expect(FileManager.default.fileExists(atPath: live.path), "the live question was removed")
        #expect(FileManager.default.fileExists(atPath: live.socket))
        #expect(agent.answer(live, with: "+from the host"))
        #expect(await host.waitForExit(deadline: .seconds(10)) == .exited(0))
        #expect(host.standardOutput == "from the host\n")
        #expect(agent.answer(theirs, with: "-"))
        #expect(await contained.waitForExit(deadline: .seconds(10)) != nil)
        #expect(await agent.waitUntilEmpty(), "left: \(agent.leftovers)")
    }

    private func waitUntilPosted(_ matching: (StandInAgent.Posted) -> Bool) async -> StandInAgent.Posted? {
        let clock = ContinuousClock()
        let end = clock.now + .seconds(10)
        while clock.now < end {
            if let found = agent.posted.first(where: matching) { return found }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    /// gpg-agent's requests piped in, no `OPTION ttyname` and no terminal: the GETPIN is posted, the passphrase
    /// comes back as the D line.
    private func pinentry(_ requests: String) throws -> PseudoTerminalProcess {
        try PseudoTerminalProcess(
            executable: "/bin/sh",
            arguments: ["-c", "printf '\(requests)' | exec \"$0\" --pinentry --speech none", PromptRun.binary],
            environment: environment, terminal: false)
    }

    @Test func aPinentrysPassphraseIsPostedAndSentAsTheDataLine() async throws {
        let process = try pinentry("SETDESC Unlock the key of otc-e2e\\nGETPIN\\nBYE\\n")
        let question = try #require(
            await agent.waitForQuestion(in: agent.systemdDirectory), "nothing posted: \(process.standardErrorText)")
        #expect(question.keys["Message"]?.contains("Unlock the key of otc-e2e") == true, "\(question.text)")
        #expect(agent.answer(question, with: "+correct horse"))
        #expect(await process.waitForExit(deadline: .seconds(10)) == .exited(0))
        #expect(process.standardOutput.contains("D correct horse\nOK\n"), "\(process.standardOutput)")
        #expect(await agent.waitUntilEmpty(), "left: \(agent.leftovers)")
    }

    /// A run that posts its question speaks nothing: no audio library is loaded while it waits for the answer.
    @Test func aPinentryWaitingForTheAgentHoldsNoAudioLibrary() async throws {
        let process = try pinentry("GETPIN\\nBYE\\n")
        let question = try #require(
            await agent.waitForQuestion(in: agent.systemdDirectory), "nothing posted: \(process.standardErrorText)")
        // The poster names itself in the request (the shell before it in the pipe is another process).
        let poster = try #require(question.keys["PID"])
        let maps = (try? String(contentsOfFile: "/proc/\(poster)/maps", encoding: .utf8)) ?? ""
        #expect(!maps.isEmpty)
        for library in ["libespeak-ng", "libpulse", "libpcaudio", "libasound"] {
            #expect(!maps.contains(library), "\(library) is loaded by a run that will not speak")
        }
        #expect(agent.answer(question, with: "-"))
        #expect(await process.waitForExit(deadline: .seconds(10)) == .exited(0))
    }

    @Test func aPinentryWaitsOnlyAsLongAsSetTimeoutSays() async throws {
        let process = try pinentry("SETTIMEOUT 1\\nGETPIN\\nBYE\\n")
        let question = try #require(await agent.waitForQuestion(), "nothing posted: \(process.standardErrorText)")
        #expect(UInt64(question.keys["NotAfter"] ?? "").map { $0 > 0 } == true)
        #expect(await process.waitForExit(deadline: .seconds(10)) != nil)
        #expect(!process.standardOutput.contains("\nD "))
        #expect(process.standardOutput.contains("ERR "), "\(process.standardOutput)")
        #expect(await agent.waitUntilEmpty(), "left: \(agent.leftovers)")
    }
}
