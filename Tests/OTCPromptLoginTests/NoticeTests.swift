import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

extension RealClientTests {
    /// The callers that ask no question and want no code.
    @Suite(.serialized) struct Notices {
        let scratch: ScratchDirectory
        init() throws { scratch = try ScratchDirectory() }

        /// A FIDO key's "Confirm user presence": ssh runs the askpass with SSH_ASKPASS_PROMPT=none and ends it
        /// with SIGTERM once the key is touched (no FIDO key here, so the call is made as ssh makes it).
        @Test
        func aUserPresenceNoticeIsShownSpokenAndEndsQuietlyOnSIGTERM() async throws {
            let speechLog = scratch.file("speech.jsonl")
            let askpass = try Askpass.wrapper(in: scratch, speechLog: speechLog)
            let notice = "Confirm user presence for key ED25519-SK SHA256:Vvh8dJ1VU7pCmxL9NTs5Uu0XTFa2nLqTFqj6yOZu7pw"
            let run = try ClientRun(
                [askpass, notice],
                environment: ClientRun.environment([
                    "SSH_ASKPASS": askpass, "SSH_ASKPASS_PROMPT": "none",
                    "XDG_RUNTIME_DIR": try scratch.runtimeDirectory(),
                ]))
            // ssh's line on the screen, above what to do.
            #expect(await run.waitForScreen("Touch your security key"), "screen: \(run.visibleScreen)")
            #expect(run.visibleScreen.contains("Confirm user presence"), "screen: \(run.visibleScreen)")
            // A barrier, not a wait for nothing to happen: asked to say itself again (Ctrl-R, past the grace),
            // the notice is still there to say it; only then is it ended.
            #expect(
                await run.readBack("Touch your security key", untilSaid: 2, speechLog: speechLog),
                "a notice must stay until ssh ends it")
            #expect(await run.process.waitForExit(deadline: .zero) == nil, "a notice must stay until ssh ends it")
            // What to do first, without the fingerprint, which takes seconds to hear; ssh's words on Ctrl-R.
            let said = SpokenLine.read(speechLog)
            #expect(said.first?.text.hasPrefix("Touch your security key.") == true, "\(said)")
            #expect(said.first?.text.contains("SHA256") == false, "\(said)")
            #expect(said.last?.text.contains("Confirm user presence for key ED25519-SK") == true, "\(said)")
            run.process.sendSignal(SIGTERM)
            #expect(await run.exit(deadline: .seconds(5)) != nil)
            #expect(run.process.standardOutput == "")
            #expect(run.terminalRestored)
        }

        /// An agent started without a terminal cannot ask: the signing is refused, and the reason reaches the
        /// agent's stderr (here a pipe the test reads) instead of vanishing.
        @Test
        func anAgentWithoutATerminalIsToldWhy() async throws {
            let socket = scratch.file("agent.sock")
            let key = scratch.file("id_ed25519")
            try await runChecked(["/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key])
            // Made by this test, and opened to its group: nowhere to post the question for a password agent either
            // (`AgentCallers` has the agent that answers it).
            let runtime = try scratch.runtimeDirectory()
            #expect(chmod(runtime, 0o770) == 0)
            let agent = try PseudoTerminalProcess(
                executable: "/usr/bin/ssh-agent", arguments: ["-D", "-a", socket],
                environment: [
                    "PATH": "/usr/bin:/bin", "SSH_ASKPASS": Askpass.binary, "SSH_ASKPASS_REQUIRE": "force",
                    "XDG_RUNTIME_DIR": runtime,
                ],
                terminal: false)
            defer { agent.sendSignal(SIGTERM) }
            try #require(await waitUntil(deadline: .seconds(10)) { unixSocketListens(socket) })
            let environment = ["PATH": "/usr/bin:/bin", "SSH_AUTH_SOCK": socket]
            try #require(
                try await runCommand(["/usr/bin/ssh-add", "-c", key], environment: environment).status == .exited(0))
            unlink(key)  // only the agent can sign now
            try scratch.write("message", "sign me\n")
            let signing = try await runCommand(
                ["/usr/bin/ssh-keygen", "-Y", "sign", "-f", key + ".pub", "-n", "file", scratch.file("message")],
                environment: environment)
            #expect(signing.status != .exited(0))
            let said = agent.standardErrorText
            #expect(said.contains("otc-prompt") && said.contains("terminal"), "agent's stderr: \(said)")
        }
    }
}
