import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

extension RealClientTests.AgentCallers {
    /// A gpg-agent started as a desktop or systemd starts it: detached (`setsid … --daemon`), no GPG_TTY, with
    /// pinentry-otc as its pinentry, and a key whose passphrase only the person knows.
    final class DetachedGPG {
        let home: String
        let passphrase = "otc gpg " + uniqueSuffix()
        let environment: [String: String]

        init(in scratch: ScratchDirectory, runtime: String, pinentry: String) async throws {
            home = scratch.file("gnupg")
            guard mkdir(home, 0o700) == 0 else { throw HarnessError("mkdir \(home)") }
            environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "GNUPGHOME": home, "XDG_RUNTIME_DIR": runtime]
            // The key is made through an agent of its own (loopback), which caches the passphrase: that one is
            // stopped before the detached one starts, so the signature must ask.
            let made = try await runCommand(
                [
                    "/usr/bin/gpg", "--batch", "--pinentry-mode", "loopback", "--passphrase", passphrase,
                    "--quick-gen-key", "otc-e2e <otc-e2e@example.invalid>", "ed25519", "sign", "never",
                ], environment: environment, deadline: .seconds(60))
            guard made.status == .exited(0) else { throw HarnessError("gpg --quick-gen-key: \(made.error)") }
            await stop()
            let started = try await runCommand(
                ["/usr/bin/setsid", "/usr/bin/gpg-agent", "--daemon", "--pinentry-program", pinentry],
                environment: environment)
            guard started.status == .exited(0) else { throw HarnessError("gpg-agent --daemon: \(started.error)") }
        }

        deinit { _ = try? runCommand(["/usr/bin/gpgconf", "--kill", "gpg-agent"], environment: environment) }

        /// Stops the agent (`gpgconf --kill`), the task suspended meanwhile.
        func stop() async {
            _ = try? await runCommand(["/usr/bin/gpgconf", "--kill", "gpg-agent"], environment: environment)
        }

        /// `gpg --sign` of a fresh file, no terminal: gpg-agent asks its pinentry for the passphrase.
        func sign(_ message: String) throws -> PseudoTerminalProcess {
            try PseudoTerminalProcess(
                executable: "/usr/bin/gpg",
                arguments: [
                    "--batch", "--yes", "--pinentry-mode", "ask", "--output", message + ".gpg", "--sign", message,
                ],
                environment: environment, terminal: false)
        }

        func verifies(_ message: String) async throws -> Bool {
            try await runCommand(["/usr/bin/gpg", "--batch", "--verify", message + ".gpg"], environment: environment)
                .status == .exited(0)
        }
    }

    /// A detached gpg-agent signing a fresh file, and the question its pinentry posted for the password agent.
    private func signingAsked() async throws -> (
        gpg: DetachedGPG, message: String, signing: PseudoTerminalProcess, question: StandInAgent.Posted
    ) {
        let gpg = try await DetachedGPG(
            in: scratch, runtime: runtime, pinentry: try wrapper("pinentry-otc", "--pinentry --speech none"))
        let message = try scratch.write("message", "a message to sign\n")
        let signing = try gpg.sign(message)
        let question = try #require(
            await agent.waitForQuestion(in: agent.systemdDirectory), "nothing posted; pinentry said: \(callerErrors)")
        return (gpg, message, signing, question)
    }

    @Test func thePassphraseTypedAtTheAgentReachesADetachedGPGAgentAndTheSignatureIsMade() async throws {
        let (gpg, message, signing, question) = try await signingAsked()
        // A password: systemd's own directory, where any agent may answer it; masked; and no secret in the file.
        #expect(question.keys["Echo"] == "0")
        #expect(question.keys["X-OTC-Kind"] == nil || question.keys["X-OTC-Kind"] == "password")
        #expect(question.keys["Message"]?.localizedCaseInsensitiveContains("passphrase") == true, "\(question.text)")
        #expect(!question.text.contains(gpg.passphrase))
        agent.answer(question, with: "+" + gpg.passphrase)
        #expect(await signing.waitForExit(deadline: .seconds(30)) == .exited(0), "gpg: \(signing.standardErrorText)")
        #expect(try await gpg.verifies(message))
        await expectNothingLeft()
    }

    @Test func escapeAtTheAgentCancelsTheSignature() async throws {
        let (gpg, message, signing, question) = try await signingAsked()
        agent.answer(question, with: "-")
        let status = await signing.waitForExit(deadline: .seconds(30))
        #expect(status != nil && status != .exited(0), "gpg signed without the passphrase")
        #expect(access(message + ".gpg", F_OK) != 0)
        await expectNothingLeft()
        withExtendedLifetime(gpg) {}  // its gpg-agent runs until the end
    }

    /// gpg-agent gone while its question waits (killed, `gpgconf --kill`): the pinentry withdraws it and ends.
    @Test func gpgAgentGoingWithdrawsItsQuestion() async throws {
        let (gpg, _, signing, question) = try await signingAsked()
        let pinentry = try #require(Int32(question.keys["PID"] ?? ""))
        await gpg.stop()
        await expectNothingLeft()
        #expect(await waitUntil(deadline: .seconds(10)) { kill(pinentry, 0) != 0 }, "the pinentry outlived gpg-agent")
        #expect(await signing.waitForExit(deadline: .seconds(30)) != .exited(0))
    }
}
