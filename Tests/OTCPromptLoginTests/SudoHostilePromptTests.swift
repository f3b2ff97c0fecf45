import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

extension RealClientTests {
    /// The prompt sudo passes (`sudo -p PROMPT`, or a PAM module's text) is data, never
    /// options, whatever it starts with. Run in the user's home, where a command or a log could be written.
    @Suite(.serialized) struct SudoHostilePrompts {
        /// Prompts that would be options; "pwned" and "spoken" are what they would create in the home.
        static let prompts = ["--check=touch pwned", "--speech-log=spoken", "--help", "--version", "--", "-h"]

        /// Runs `sudo -A -p PROMPT true` as a throwaway user with the bare binary or the documented wrapper as
        /// SUDO_ASKPASS, types the right password once the prompt is on the screen, and checks that sudo ran and
        /// nothing else happened. Returns what the wrapper's speech log says (empty for the bare binary).
        @discardableResult
        func runSudo(prompt: String, wrapped: Bool, separator: Bool = true) throws -> String {
            let scratch = try ScratchDirectory()
            let user = try ThrowawayUser(in: scratch, sudo: true)
            let config = try Askpass.quietConfig(in: scratch)
            let speechLog = user.home + "/wrapper-speech.jsonl"
            let askpass =
                wrapped ? try Askpass.wrapper(in: scratch, speechLog: speechLog, separator: separator) : Askpass.binary
            let run = try ClientRun(
                user.command(["/usr/bin/sudo", "-A", "-k", "-p", prompt, "/bin/true"]),
                environment: ClientRun.environment([
                    "SUDO_ASKPASS": askpass, "HOME": user.home, "OTC_PROMPT_CONFIG": config,
                    "XDG_RUNTIME_DIR": try scratch.runtimeDirectory(owner: user.userID, group: user.groupID),
                ]))
            run.answer(user.password + "\r", after: prompt)
            #expect(run.exit() == .exited(0), "screen: \(run.visibleScreen)")
            #expect(!run.visibleScreen.contains("Sorry, try again"), "screen: \(run.visibleScreen)")
            #expect(run.terminalRestored)
            for made in ["pwned", "spoken"] {
                #expect(access(user.home + "/" + made, F_OK) != 0, "\(prompt) created \(made)")
            }
            let spoken = SpokenLine.transcript(speechLog)
            #expect(!spoken.contains(user.password), "the password was spoken: \(spoken)")
            return spoken
        }

        @Test(arguments: prompts)
        func aPromptThatLooksLikeOptionsIsALabelForTheBareBinary(_ prompt: String) async throws {
            try runSudo(prompt: prompt, wrapped: false)
        }

        @Test(arguments: prompts)
        func aPromptThatLooksLikeOptionsIsALabelThroughTheDocumentedWrapper(_ prompt: String) async throws {
            let spoken = try runSudo(prompt: prompt, wrapped: true)
            #expect(!spoken.isEmpty, "the wrapper said nothing")
        }

        /// The user guide says a wrapper written without `--` is safe too.
        @Test(arguments: prompts.filter { $0 != "--" })
        func aPromptThatLooksLikeOptionsIsALabelThroughAWrapperWithoutTheSeparator(_ prompt: String) async throws {
            let spoken = try runSudo(prompt: prompt, wrapped: true, separator: false)
            #expect(!spoken.isEmpty, "the wrapper said nothing")
        }

        /// Without the wrapper's own `--`, a prompt that is exactly "--" must still be the prompt, not the
        /// separator (which lost it and left a 6-digit field that cannot take sudo's password).
        @Test
        func aPromptThatIsOnlyTheSeparatorIsALabelThroughAWrapperWithoutTheSeparator() async throws {
            try runSudo(prompt: "--", wrapped: true, separator: false)
        }

        /// A prompt's escape sequences (here a title change and a right-to-left override,
        /// as a PAM module's text could hold) never reach the terminal raw.
        @Test func aPromptsEscapeSequencesNeverReachTheTerminal() async throws {
            let scratch = try ScratchDirectory()
            let user = try ThrowawayUser(in: scratch, sudo: true)
            let config = try Askpass.quietConfig(in: scratch)
            let prompt = "\u{1b}]2;owned\u{7}\u{202e}Password please: "
            let run = try ClientRun(
                user.command(["/usr/bin/sudo", "-A", "-k", "-p", prompt, "/bin/true"]),
                environment: ClientRun.environment([
                    "SUDO_ASKPASS": Askpass.binary, "HOME": user.home, "OTC_PROMPT_CONFIG": config,
                    "XDG_RUNTIME_DIR": try scratch.runtimeDirectory(owner: user.userID, group: user.groupID),
                ]))
            await run.answer(user.password + "\r", after: "Password please")
            #expect(await run.exit() == .exited(0), "screen: \(run.visibleScreen)")
            let screen = run.process.screen
            #expect(!screen.contains("\u{1b}]2;owned"), "a title change reached the terminal")
            #expect(!screen.contains("\u{202e}"), "a bidi override reached the terminal")
            #expect(run.terminalRestored)
        }
    }
}
