import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

extension RealClientTests {
    /// `git clone` from an HTTP remote that asks for credentials, with otc-prompt as GIT_ASKPASS.
    @Suite(.serialized) struct GitCredentials {
        let scratch: ScratchDirectory
        let remote: GitHTTPRemote
        let speechLog: String
        let runtime: String
        var clone: String { scratch.file("clone") }

        init() throws {
            scratch = try ScratchDirectory()
            remote = try GitHTTPRemote(in: scratch)
            speechLog = scratch.file("speech.jsonl")
            runtime = try scratch.runtimeDirectory()
        }

        func gitClone() throws -> ClientRun {
            let askpass = try Askpass.wrapper(in: scratch, speechLog: speechLog)
            return try ClientRun(
                ["/usr/bin/git", "clone", "--quiet", remote.url, clone],
                environment: ClientRun.environment([
                    "GIT_ASKPASS": askpass, "HOME": scratch.path, "XDG_RUNTIME_DIR": runtime,
                    "GIT_CONFIG_NOSYSTEM": "1",
                    "GIT_CONFIG_GLOBAL": "/dev/null",
                ]))
        }

        @Test func theUserNameIsShownThePasswordMaskedAndTheCloneDone() async throws {
            let run = try gitClone()
            // git's line, with the URL, is drawn above the field: which remote asks is always on screen.
            #expect(run.waitForScreen("Username for 'http"), "screen: \(run.visibleScreen)")
            await run.answer(remote.userName + "\r", after: "Git user name", speechLog: speechLog)
            #expect(run.waitForScreen("Password for 'http"), "screen: \(run.visibleScreen)")
            await run.answer(remote.password + "\r", after: "Git password", speechLog: speechLog)
            #expect(await run.exit() == .exited(0), "screen: \(run.visibleScreen)")
            let cloned = try await runCommand(["/usr/bin/git", "-C", clone, "rev-parse", "HEAD"]).output
            #expect(cloned.trimmingCharacters(in: .whitespacesAndNewlines) == remote.head)
            #expect(run.terminalRestored)
            #expect(run.visibleScreen.contains(remote.userName), "a user name is not a secret: it is shown")
            #expect(!run.visibleScreen.contains(remote.password), "the password was shown")
            let spoken = SpokenLine.transcript(speechLog)
            #expect(!spoken.contains(remote.password), "the password was spoken: \(spoken)")
            let prompts = SpokenLine.read(speechLog).filter { $0.event == "prompt" }.map(\.text)
            // The question first; git's line is said on Ctrl-R.
            #expect(
                prompts.count == 2 && prompts[0].hasPrefix("Git user name. Type it, then Enter.")
                    && prompts[1].hasPrefix("Git password. Type it, then Enter."), "\(prompts)")
            #expect(!prompts.contains { $0.contains("http") }, "the URL in an opening: \(prompts)")
        }

        @Test func aWrongPasswordLeavesNoClone() async throws {
            let run = try gitClone()
            await run.answer(remote.userName + "\r", after: "Git user name", speechLog: speechLog)
            await run.answer("wrong-password\r", after: "Git password", speechLog: speechLog)
            #expect(await run.exit() == .exited(128), "screen: \(run.visibleScreen)")
            #expect(run.visibleScreen.contains("Authentication failed"))
            #expect(access(clone, F_OK) != 0)
            #expect(run.terminalRestored)
        }
    }
}
