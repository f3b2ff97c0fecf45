import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

extension RealClientTests {
    /// Callers with no terminal (an ssh-agent and a gpg-agent started detached, with `setsid`) reach the person
    /// through their password agent: the askpass and the pinentry post the question in `XDG_RUNTIME_DIR`, and the
    /// answer comes back to the real client. A stand-in agent (`StandInAgent`) answers, as `otc-prompt --agent`
    /// would; the agent's own tests answer through the real one.
    @Suite(.serialized) struct AgentCallers {
        let scratch: ScratchDirectory
        let runtime: String
        let agent: StandInAgent
        /// The askpass's and the pinentry's stderr: the detached agents send theirs to /dev/null.
        let errors: String

        init() throws {
            scratch = try ScratchDirectory()
            runtime = try scratch.runtimeDirectory(named: "user-runtime")
            agent = StandInAgent(runtimeDirectory: runtime)
            errors = scratch.file("caller.err")
        }

        /// The otc-prompt wrapper a detached agent runs, its stderr kept for the test.
        func wrapper(_ name: String, _ options: String) throws -> String {
            try scratch.write(
                name,
                """
                #!/bin/sh
                exec '\(Askpass.binary)' \(options) "$@" 2>>'\(errors)'

                """, mode: 0o755)
        }

        var callerErrors: String { (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "" }

        /// The question `login`'s askpass posts. A minute's deadline: beside the whole suite, a login's key exchange
        /// and the detached agent's start of the askpass have taken over 20 s.
        func question(for login: PseudoTerminalProcess) async throws -> StandInAgent.Posted {
            try #require(
                await agent.waitForQuestion(deadline: .seconds(60)),
                "nothing posted; askpass said: \(callerErrors); ssh \(login.hasExited ? "ended" : "runs"): \(login.standardErrorText)"
            )
        }

        /// Everything posted was withdrawn: no ask file, socket or temporary file is left.
        func expectNothingLeft(sourceLocation: SourceLocation = #_sourceLocation) async {
            let clean = await agent.waitUntilEmpty()
            #expect(clean, "left behind: \(agent.leftovers)", sourceLocation: sourceLocation)
        }

        // MARK: ssh-agent

        /// An ssh-agent started as `eval "$(ssh-agent)"` does, detached with `setsid` (no terminal at all), holding a
        /// key added with `ssh-add -c`, and an sshd that accepts that key for a throwaway user.
        struct DetachedSSH {
            let server: PrivateSSHServer
            let user: ThrowawayUser
            let socket: String
            let agentPID: pid_t
            let knownHosts: String
        }

        func detachedSSH(askpassOptions: String) async throws -> DetachedSSH {
            let askpass = try wrapper("otc-askpass", "--askpass --speech none " + askpassOptions + " --")
            let key = scratch.file("id_ed25519")
            try await runChecked([
                "/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "otc-e2e-key", "-f", key,
            ])
            let authorized = try scratch.write(
                "authorized_keys", try String(contentsOfFile: key + ".pub", encoding: .utf8))
            let server = try PrivateSSHServer(in: scratch, authorizedKeys: authorized)
            let user = try ThrowawayUser(in: scratch)
            let socket = scratch.file("agent.sock")
            let started = try await runCommand(
                ["/usr/bin/setsid", "/usr/bin/ssh-agent", "-a", socket],
                environment: ClientRun.environment([
                    "SSH_ASKPASS": askpass, "SSH_ASKPASS_REQUIRE": "force", "XDG_RUNTIME_DIR": runtime,
                ]))
            guard let pid = started.output.firstMatch(of: /SSH_AGENT_PID=([0-9]+)/).flatMap({ pid_t($0.1) }) else {
                throw HarnessError("no agent pid in \(started.output) \(started.error)")
            }
            let added = try await runCommand(
                ["/usr/bin/ssh-add", "-c", key], environment: sshClientEnvironment(socket))
            guard added.status == .exited(0) else {
                kill(pid, SIGTERM)
                throw HarnessError("ssh-add -c: \(added.error)")
            }
            unlink(key)
            let knownHosts = try scratch.write("known_hosts", server.knownHostsLine, mode: 0o600)
            return DetachedSSH(server: server, user: user, socket: socket, agentPID: pid, knownHosts: knownHosts)
        }

        func sshClientEnvironment(_ socket: String) -> [String: String] {
            ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "SSH_AUTH_SOCK": socket]
        }

        /// `ssh` with the agent's key only, no terminal, no question of its own.
        func login(_ ssh: DetachedSSH) throws -> PseudoTerminalProcess {
            try PseudoTerminalProcess(
                executable: "/usr/bin/ssh",
                arguments: [
                    "-F", "/dev/null", "-p", String(ssh.server.port), "-o", "UserKnownHostsFile=\(ssh.knownHosts)",
                    "-o", "GlobalKnownHostsFile=/dev/null", "-o", "StrictHostKeyChecking=yes", "-o", "BatchMode=yes",
                    "-o", "PreferredAuthentications=publickey", "-o", "ConnectTimeout=10",
                    "\(ssh.user.name)@127.0.0.1", "echo logged-in-as-$(id -un)",
                ], environment: sshClientEnvironment(ssh.socket), terminal: false)
        }

        @Test func yesAtTheAgentLetsTheDetachedSSHAgentSignTheLogin() async throws {
            let ssh = try await detachedSSH(askpassOptions: "")
            defer { kill(ssh.agentPID, SIGTERM) }
            let login = try login(ssh)
            let question = try await question(for: login)
            // A yes/no question only otc-prompt's agent can ask: its own directory, never systemd's.
            #expect(question.path.hasPrefix(agent.otcPromptDirectory + "/"))
            #expect(question.keys["X-OTC-Kind"] == "question")
            #expect(question.keys["Message"]?.contains("Allow use of key") == true, "posted: \(question.text)")
            #expect(question.socket.hasPrefix(agent.otcPromptDirectory + "/sck."))
            #expect(Int32(question.keys["PID"] ?? "").map { kill($0, 0) == 0 } == true, "PID= is the live askpass")
            #expect((UInt64(question.keys["NotAfter"] ?? "") ?? 0) > 0, "the caller's limit is in the file")
            var status = stat()
            #expect(lstat(question.socket, &status) == 0 && status.st_mode & 0o777 == 0o600)
            agent.answer(question, with: "+yes")
            #expect(await login.waitForExit(deadline: .seconds(20)) == .exited(0), "ssh: \(login.standardErrorText)")
            #expect(login.standardOutput.contains("logged-in-as-\(ssh.user.name)"))
            await expectNothingLeft()
        }

        @Test func noAtTheAgentRefusesTheLogin() async throws {
            let ssh = try await detachedSSH(askpassOptions: "")
            defer { kill(ssh.agentPID, SIGTERM) }
            let login = try login(ssh)
            let question = try await question(for: login)
            agent.answer(question, with: "+no")
            let status = await login.waitForExit(deadline: .seconds(20))
            #expect(status != nil && status != .exited(0), "ssh logged in without a yes")
            #expect(!login.standardOutput.contains("logged-in-as"))
            await expectNothingLeft()
        }

        /// A password typed for a question is no answer (nor is anything but yes, no or "-"): the question waits on.
        @Test func aPasswordDatagramIsNoAnswerToAQuestion() async throws {
            let ssh = try await detachedSSH(askpassOptions: "")
            defer { kill(ssh.agentPID, SIGTERM) }
            let login = try login(ssh)
            let question = try await question(for: login)
            agent.answer(question, with: "+yes please")
            agent.answer(question, with: "-")
            let status = await login.waitForExit(deadline: .seconds(20))
            #expect(status != nil && status != .exited(0), "ssh logged in without a yes")
            await expectNothingLeft()
        }

        /// The askpass ended by a signal while its question waits (ssh-agent killed, a logout) withdraws it first.
        @Test(arguments: [SIGTERM, SIGHUP])
        func aSignalWithdrawsThePostedQuestion(_ signal: Int32) async throws {
            let ssh = try await detachedSSH(askpassOptions: "")
            defer { kill(ssh.agentPID, SIGTERM) }
            let login = try login(ssh)
            let question = try await question(for: login)
            let askpass = try #require(Int32(question.keys["PID"] ?? ""))
            #expect(kill(askpass, signal) == 0)
            let status = await login.waitForExit(deadline: .seconds(20))
            #expect(status != nil && status != .exited(0), "ssh logged in with nobody's yes")
            await expectNothingLeft()
        }

        /// No agent runs: the question is withdrawn at the caller's limit (`--timeout`), the login refused, and the
        /// reason given where the user can find it (stderr here; the system log too).
        @Test func withNoAgentTheQuestionEndsAtTheCallersLimitAsACancel() async throws {
            let ssh = try await detachedSSH(askpassOptions: "--timeout 2")
            defer { kill(ssh.agentPID, SIGTERM) }
            let login = try login(ssh)
            #expect(await agent.waitForQuestion() != nil, "nothing posted; askpass said: \(callerErrors)")
            let status = await login.waitForExit(deadline: .seconds(20))
            #expect(status != nil && status != .exited(0), "ssh logged in with nobody's yes")
            #expect(callerErrors.contains("no password agent answered within 2 s"), "askpass said: \(callerErrors)")
            await expectNothingLeft()
        }
    }
}
