import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptSettings
import Testing

/// The command line's one choice: which front end a command line and a program name ask for.
@Suite struct FrontEndChoiceTests {
    private func chosen(_ arguments: [String], programPath: String = "/usr/bin/otc-prompt") throws -> FrontEnd {
        let parsed = try CommandLineParser.parse(arguments).get()
        return FrontEnd.choose(
            commandLine: parsed.values, prompt: parsed.prompt, programPath: programPath, environment: [:])
    }

    @Test func aPlainCommandLineIsTheCodePrompt() throws {
        #expect(try chosen([]) == .prompt)
        #expect(try chosen(["-n", "8", "Bank code"]) == .prompt)
    }

    @Test func anAskpassCallIsReadFromItsPrompt() throws {
        #expect(try chosen(["--askpass", "--", "Password: "]) == .askpass(prompt: "Password: "))
        // Without its prompt there is nothing to read: the plain prompt.
        #expect(try chosen(["--askpass"]) == .prompt)
    }

    @Test func aPinentryWinsOverStdinAndAskpass() throws {
        #expect(try chosen(["--pinentry"]) == .pinentry)
        #expect(try chosen(["--pinentry", "--stdin"]) == .pinentry)
        #expect(try chosen([], programPath: "/usr/local/bin/pinentry-otc") == .pinentry)
        #expect(try chosen([], programPath: "pinentry-otc") == .pinentry)
        #expect(try chosen([], programPath: "/usr/bin/pinentry-otc-old") == .prompt)
    }

    @Test func theDoctorWinsOverEverything() throws {
        #expect(try chosen(["--doctor", "--pinentry", "--stdin"]) == .doctor)
    }

    @Test func stdinReadsALine() throws {
        #expect(try chosen(["--stdin"]) == .stdin)
        #expect(try chosen(["--stdin", "--askpass", "--", "Password: "]) == .stdin)
    }

    /// The options a person's shell may pass alone, which an askpass variable must not turn into a prompt
    /// (`AskpassArguments.jobOptions`), are each a job of their own: an action, or a front end other than the prompt.
    @Test(arguments: AskpassArguments.jobOptions + ["--boot-cue=first"])
    func eachJobOptionIsAJobOfItsOwn(option: String) throws {
        let parsed = try CommandLineParser.parse([option]).get()
        guard parsed.action == .run else { return }
        #expect(try chosen([option]) != .prompt)
    }
}
