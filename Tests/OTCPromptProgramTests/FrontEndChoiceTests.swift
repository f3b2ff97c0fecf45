import OTCPromptCore
import OTCPromptSettings
import Testing

@testable import OTCPromptProgram

/// The one choice: which front end a command line, a program name and the caller's protocol variables ask for.
@Suite struct FrontEndChoiceTests {
    static let presence = "Confirm user presence for key ED25519-SK SHA256:abc"
    static let touchHint = ["SSH_ASKPASS_PROMPT": "none"]

    /// The chosen front end with what it carries ("AskpassFrontEndRun(prompt: …)"), for comparing.
    static func chosen(
        _ arguments: [String], programPath: String = "/usr/bin/otc-prompt", environment: [String: String] = [:]
    ) throws -> String {
        let parsed = try CommandLineParser.parse(arguments).get()
        return String(
            describing: FrontEnds.choose(
                commandLine: parsed.values, prompt: parsed.prompt, programPath: programPath, environment: environment))
    }

    private func chosen(
        _ arguments: [String], programPath: String = "/usr/bin/otc-prompt", environment: [String: String] = [:]
    ) throws -> String {
        try Self.chosen(arguments, programPath: programPath, environment: environment)
    }

    private func named(_ frontEnd: any FrontEndRun) -> String { String(describing: frontEnd) }

    @Test func aPlainCommandLineIsTheCodePrompt() throws {
        #expect(try chosen([]) == named(PromptFrontEndRun()))
        #expect(try chosen(["-n", "8", "Bank code"]) == named(PromptFrontEndRun()))
    }

    @Test func anAskpassCallIsReadFromItsPrompt() throws {
        #expect(try chosen(["--askpass", "--", "Password: "]) == named(AskpassFrontEndRun(prompt: "Password: ")))
        // Without its prompt there is nothing to read: the plain prompt.
        #expect(try chosen(["--askpass"]) == named(PromptFrontEndRun()))
    }

    @Test func aPinentryWinsOverStdinAndAskpass() throws {
        #expect(try chosen(["--pinentry"]) == named(PinentryFrontEndRun()))
        #expect(try chosen(["--pinentry", "--stdin"]) == named(PinentryFrontEndRun()))
        #expect(try chosen([], programPath: "/usr/local/bin/pinentry-otc") == named(PinentryFrontEndRun()))
        #expect(try chosen([], programPath: "pinentry-otc") == named(PinentryFrontEndRun()))
        #expect(try chosen([], programPath: "/usr/bin/pinentry-otc-old") == named(PromptFrontEndRun()))
    }

    @Test func theDoctorWinsOverEverything() throws {
        #expect(try chosen(["--doctor", "--pinentry", "--stdin"]) == named(DoctorFrontEndRun()))
        #expect(try chosen(["--doctor", "--boot-cue=first", "--agent"]) == named(DoctorFrontEndRun()))
    }

    @Test func stdinReadsALine() throws {
        #expect(try chosen(["--stdin"]) == named(StdinFrontEndRun()))
        #expect(try chosen(["--stdin", "--askpass", "--", "Password: "]) == named(StdinFrontEndRun()))
    }

    @Test func theKeyscriptsAndTheAgentsOptionsChooseThem() throws {
        #expect(try chosen(["--cryptsetup"]) == named(CryptsetupFrontEndRun()))
        #expect(try chosen(["--agent"]) == named(AgentFrontEndRun(query: false)))
        #expect(try chosen(["--agent", "--query"]) == named(AgentFrontEndRun(query: true)))
        #expect(try chosen(["--boot-cue", "retry"]) == named(BootCueFrontEndRun(cue: .retry)))
    }

    @Test func anAskpassCallThatSshMarksNoneIsTheTouchNotice() throws {
        let touch = named(TouchFrontEndRun(prompt: Self.presence))
        #expect(try chosen(["--askpass", "--", Self.presence], environment: Self.touchHint) == touch)
        // An askpass call as ssh makes it (no `--askpass`) reaches the same choice, read by the askpass front end.
        let arguments = FrontEnds.argumentsToParse(
            FrontEndCall(
                arguments: [Self.presence], programPath: "/usr/bin/otc-prompt", environment: Self.touchHint,
                standardOutput: .mayBeTheCaller))
        #expect(try chosen(arguments, environment: Self.touchHint) == touch)
    }

    @Test func anyOtherHintOrNoneAtAllIsTheAskpass() throws {
        for environment in [[:], ["SSH_ASKPASS_PROMPT": "confirm"], ["SSH_ASKPASS_PROMPT": "None"]] {
            #expect(
                try chosen(["--askpass", "--", Self.presence], environment: environment)
                    == named(AskpassFrontEndRun(prompt: Self.presence)), "\(environment)")
        }
    }

    @Test func theHintAloneChoosesNothing() throws {
        // Not an askpass call, or one without its prompt: the hint is no command line.
        #expect(try chosen([Self.presence], environment: Self.touchHint) == named(PromptFrontEndRun()))
        #expect(try chosen(["--askpass"], environment: Self.touchHint) == named(PromptFrontEndRun()))
        // A command line that asks for another front end wins.
        #expect(
            try chosen(["--stdin", "--askpass", "--", Self.presence], environment: Self.touchHint)
                == named(StdinFrontEndRun()))
    }

    /// A person's arguments pass to the parser as they are; only an askpass call is read as askpass's.
    @Test func onlyTheAskpassFrontEndReadsTheRawArgumentsItsOwnWay() {
        let person = FrontEndCall(
            arguments: ["--help"], programPath: "/usr/bin/otc-prompt", environment: [:], standardOutput: .terminal)
        #expect(FrontEnds.argumentsToParse(person) == ["--help"])
        let caller = FrontEndCall(
            arguments: ["--help"], programPath: "/usr/bin/otc-prompt",
            environment: ["SUDO_ASKPASS": "/usr/bin/otc-prompt"], standardOutput: .mayBeTheCaller)
        #expect(FrontEnds.argumentsToParse(caller) == ["--askpass", "--", "--help"])
        #expect(FrontEnds.all.filter { $0.argumentsToParse(caller) != nil }.count == 1)
    }
}
