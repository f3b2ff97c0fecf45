import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

extension RealClientTests {
    /// ssh logging in to a private sshd, every question asked through otc-prompt (SSH_ASKPASS_REQUIRE=force).
    @Suite(.serialized) struct SSHLogin {
        let scratch: ScratchDirectory
        let user: ThrowawayUser
        let server: PrivateSSHServer
        let speechLog: String
        let knownHosts: String
        let runtime: String
        /// What the remote command prints once logged in.
        var loggedIn: String { "logged-in-as-\(user.name)" }

        init() throws {
            scratch = try ScratchDirectory()
            user = try ThrowawayUser(in: scratch)
            server = try PrivateSSHServer(in: scratch)
            speechLog = scratch.file("speech.jsonl")
            knownHosts = scratch.file("known_hosts")
            runtime = try scratch.runtimeDirectory()
        }

        /// `ssh` to the private server as the throwaway user, with `authentication` only; the server's key is
        /// known unless `newHost`.
        func ssh(_ authentication: String, newHost: Bool = false, locale: String = "C.UTF-8") throws -> ClientRun {
            try scratch.write("known_hosts", newHost ? "" : server.knownHostsLine, mode: 0o600)
            let askpass = try Askpass.wrapper(in: scratch, speechLog: speechLog)
            return try ClientRun(
                [
                    "/usr/bin/ssh", "-F", "/dev/null", "-p", String(server.port), "-o",
                    "UserKnownHostsFile=\(knownHosts)",
                    "-o", "GlobalKnownHostsFile=/dev/null", "-o", "StrictHostKeyChecking=ask", "-o",
                    "PreferredAuthentications=\(authentication)", "-o", "PubkeyAuthentication=no", "-o",
                    "NumberOfPasswordPrompts=3", "-o", "ConnectTimeout=10", "\(user.name)@127.0.0.1",
                    "echo logged-in-as-$(id -un)",
                ],
                environment: ClientRun.environment([
                    "SSH_ASKPASS": askpass, "SSH_ASKPASS_REQUIRE": "force", "HOME": scratch.path,
                    "XDG_RUNTIME_DIR": runtime, "LANG": locale,
                ]))
        }

        /// ssh ran the remote command, left the terminal as it was, and no secret was spoken or shown.
        func expectLoggedIn(_ run: ClientRun, secrets: [String], sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(
                run.exit() == .exited(0), "screen: \(run.visibleScreen)\n\(server.log)", sourceLocation: sourceLocation)
            #expect(run.process.standardOutput.contains(loggedIn), sourceLocation: sourceLocation)
            #expect(run.terminalRestored, "terminal settings changed", sourceLocation: sourceLocation)
            let spoken = SpokenLine.transcript(speechLog)
            for secret in secrets {
                #expect(!spoken.contains(secret), "spoken: \(spoken)", sourceLocation: sourceLocation)
                #expect(!run.visibleScreen.contains(secret), "shown: \(secret)", sourceLocation: sourceLocation)
            }
        }

        @Test func passwordLogin() async throws {
            let run = try ssh("password")
            await run.answer(user.password + "\r", after: "'s password")
            expectLoggedIn(run, secrets: [user.password])
            // The question first; ssh's line, with the host, was on screen (answered after it) and is said on Ctrl-R.
            let prompts = SpokenLine.read(speechLog).filter { $0.event == "prompt" }.map(\.text)
            #expect(prompts.first?.hasPrefix("SSH password. Type it, then Enter.") == true, "spoken: \(prompts)")
            #expect(prompts.first?.contains("127.0.0.1") == false, "the host in the opening: \(prompts)")
        }

        @Test func aWrongPasswordThenTheRightOne() async throws {
            let run = try ssh("password")
            await run.answer("wrong-password\r", after: "'s password")
            await run.answer(user.password + "\r", after: "SSH password", call: 2, speechLog: speechLog)
            expectLoggedIn(run, secrets: [user.password, "wrong-password"])
            #expect(run.visibleScreen.contains("Permission denied, please try again."))
        }

        @Test func keyboardInteractiveWithATOTPCodeThenThePassword() async throws {
            let secret = try server.enableTOTP(for: user.name)
            let run = try ssh("keyboard-interactive")
            await run.answer(try secret.currentCode(), after: "Verification code")
            await run.answer(user.password + "\r", after: "Password")
            expectLoggedIn(run, secrets: [user.password])
            let prompts = SpokenLine.read(speechLog).filter { $0.event == "prompt" }.map(\.text)
            #expect(prompts.first?.hasPrefix("Verification code. Type 6 digits.") == true, "spoken: \(prompts)")
            #expect(prompts.last?.hasPrefix("Password. Type it, then Enter.") == true, "spoken: \(prompts)")
            #expect(!prompts.contains { $0.contains("127.0.0.1") }, "the host in an opening: \(prompts)")
        }

        @Test func aWrongTOTPCodeThenTheRightOne() async throws {
            let secret = try server.enableTOTP(for: user.name)
            let run = try ssh("keyboard-interactive")
            await run.answer(try secret.wrongCode(), after: "Verification code")
            await run.answer(try secret.currentCode(), after: "Verification code", call: 2, speechLog: speechLog)
            await run.answer(user.password + "\r", after: "Password")
            expectLoggedIn(run, secrets: [user.password])
        }

        /// After a refused code, the next question starts by saying so.
        @Test
        func aRefusedCodeIsSaidAloudBeforeTheNextQuestion() async throws {
            let secret = try server.enableTOTP(for: user.name)
            let run = try ssh("keyboard-interactive")
            await run.answer(try secret.wrongCode(), after: "Verification code")
            await run.answer(try secret.currentCode(), after: "Verification code", call: 2, speechLog: speechLog)
            await run.answer(user.password + "\r", after: "Password")
            expectLoggedIn(run, secrets: [user.password])
            let said = SpokenLine.saidBefore("verification code", in: speechLog)
            try #require(said.count >= 2, "spoken: \(SpokenLine.transcript(speechLog))")
            #expect(SpokenLine.saysRefused(said[1]), "said before the second question: \(said[1])")
            #expect(!SpokenLine.saysRefused(said[0]), "said before the first question: \(said[0])")
        }
    }
}
