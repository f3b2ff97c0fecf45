import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

extension RealClientTests.AgentCallers {
    /// `otc-prompt --agent` on a pty of its own, as the user keeps it in a terminal, watching only this test's
    /// directories (`--agent-directory`), with a speech log: what the person hears and types.
    func realAgent() throws -> (agent: ClientRun, speechLog: String) {
        let directories = [agent.systemdDirectory, agent.otcPromptDirectory]
        for directory in directories {
            // Made here as the posting side makes them (0700, the user's), for the agent to watch from the start.
            let parent = (directory as NSString).deletingLastPathComponent
            for level in [parent, directory] where mkdir(level, 0o700) != 0 && errno != EEXIST {
                throw HarnessError("mkdir \(level)")
            }
        }
        let speechLog = scratch.file("agent-speech.jsonl")
        let run = try ClientRun(
            [
                Askpass.binary, "--agent", "--agent-directory", directories.joined(separator: ":"), "--speech", "none",
                "--speech-log", speechLog,
            ], environment: ClientRun.environment(["XDG_RUNTIME_DIR": runtime]))
        return (run, speechLog)
    }

    @Test func aDetachedSSHAgentsQuestionIsAnsweredYesAtTheRealAgent() async throws {
        let ssh = try await detachedSSH(askpassOptions: "")
        defer { kill(ssh.agentPID, SIGTERM) }
        let (person, speechLog) = try realAgent()
        defer { person.process.sendSignal(SIGTERM) }
        let login = try login(ssh)
        await person.answer("yes\r", after: "Allow use of key")
        #expect(await login.waitForExit(deadline: .seconds(30)) == .exited(0), "ssh: \(login.standardErrorText)")
        #expect(login.standardOutput.contains("logged-in-as-\(ssh.user.name)"))
        #expect(SpokenLine.transcript(speechLog).contains("Allow use of key"))
        await expectNothingLeft()
    }

    @Test func aDetachedGPGAgentsPassphraseIsTypedAtTheRealAgent() async throws {
        let gpg = try await DetachedGPG(
            in: scratch, runtime: runtime, pinentry: try wrapper("pinentry-otc", "--pinentry --speech none"))
        let (person, speechLog) = try realAgent()
        defer { person.process.sendSignal(SIGTERM) }
        let message = try scratch.write("message", "a message to sign\n")
        let signing = try gpg.sign(message)
        await person.answer(gpg.passphrase + "\r", after: "passphrase")
        #expect(await signing.waitForExit(deadline: .seconds(30)) == .exited(0), "gpg: \(signing.standardErrorText)")
        #expect(try await gpg.verifies(message))
        #expect(!SpokenLine.transcript(speechLog).contains(gpg.passphrase), "the passphrase was never said")
        #expect(!person.visibleScreen.contains(gpg.passphrase), "nor shown")
        await expectNothingLeft()
    }
}
