import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

extension RealClientTests {
    /// What the user guide says of `eval "$(ssh-agent)"`: the agent detaches from the terminal (a session of
    /// its own, stdio on /dev/null), so the askpass it runs for `ssh-add -c` has no terminal to ask on.
    @Suite(.serialized) struct DetachedSSHAgent {
        @Test func anAgentStartedWithEvalCannotAskAndTheReasonReachesStderr() async throws {
            let scratch = try ScratchDirectory()
            let speechLog = scratch.file("speech.jsonl")
            let errors = scratch.file("askpass.err")
            // The guide's wrapper, its stderr kept: the agent itself sends it to /dev/null.
            let askpass = try scratch.write(
                "otc-askpass",
                """
                #!/bin/sh
                exec '\(Askpass.binary)' --askpass --speech text --speech-log '\(speechLog)' -- "$@" 2>>'\(errors)'

                """, mode: 0o755)
            let socket = scratch.file("agent.sock")
            let key = scratch.file("id_ed25519")
            try await runChecked(["/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "otc-e2e-key", "-f", key])
            // As a shell profile runs it, on the user's terminal.
            let shell = try ClientRun(
                ["/bin/sh", "-c", "eval \"$(ssh-agent -a '\(socket)')\" >/dev/null && echo \"pid=$SSH_AGENT_PID\""],
                environment: ClientRun.environment(["SSH_ASKPASS": askpass, "SSH_ASKPASS_REQUIRE": "force"]))
            #expect(await shell.exit(deadline: .seconds(10)) == .exited(0))
            let output = shell.process.standardOutput
            let agentPID = output.firstMatch(of: /pid=([0-9]+)/).flatMap { pid_t($0.1) }
            try #require(agentPID != nil, "no agent pid in \(output)")
            defer { kill(agentPID!, SIGTERM) }

            let client = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "SSH_AUTH_SOCK": socket]
            let added = try await runCommand(["/usr/bin/ssh-add", "-c", key], environment: client)
            #expect(added.status == .exited(0), "ssh-add -c: \(added.error)")
            let message = try scratch.write("message", "a message to sign\n")
            let signing = try await runCommand(
                ["/usr/bin/ssh-keygen", "-Y", "sign", "-f", key + ".pub", "-n", "file", message], environment: client)
            #expect(signing.status != .exited(0), "the agent signed without asking")
            #expect(signing.error.contains("agent refused operation"), "ssh-keygen said: \(signing.error)")
            let reason = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            #expect(reason.contains("no terminal to prompt on"), "askpass stderr: \(reason)")
            #expect(!SpokenLine.transcript(speechLog).contains("Allow use of key"), "nothing could be asked")
        }
    }
}
