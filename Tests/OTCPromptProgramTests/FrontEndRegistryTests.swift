import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptSettings
import Testing

@testable import OTCPromptProgram

/// What each front end needs of the run, as the registry gives it: the one place that says which runs open the
/// terminal, post for an agent, warm the voice up early and keep a renewal.
@Suite struct FrontEndRegistryTests {
    static let every: [FrontEnd] = [
        .prompt, .askpass(prompt: "Password: "), touch, .pinentry, .stdin,
        .cryptsetup, .doctor, .bootCue(.firstTry), .agent(query: false), .touchWatch,
    ]
    static let touch = FrontEnd.touch(prompt: "Confirm user presence")

    private func run(_ arguments: [String], programPath: String = "/usr/bin/otc-prompt") throws -> any FrontEndRun {
        let parsed = try CommandLineParser.parse(arguments).get()
        return FrontEndRegistry.choose(
            commandLine: parsed.values, prompt: parsed.prompt, programPath: programPath, environment: [:])
    }

    @Test func eachChoiceHasItsOwnType() {
        let types = Self.every.map { String(describing: type(of: FrontEndRegistry.run(for: $0))) }
        #expect(Set(types).count == Self.every.count, "\(types)")
    }

    @Test func onlyThoseAskingAtTheTerminalOpenIt() {
        let opening = Self.every.filter { FrontEndRegistry.run(for: $0).opensTerminal }
        #expect(opening == [.prompt, .askpass(prompt: "Password: "), Self.touch, .cryptsetup, .agent(query: false)])
    }

    @Test func onlyAnAskpassCallPostsForAnAgentWithoutATerminal() {
        let posting = Self.every.filter { FrontEndRegistry.run(for: $0).postsWithoutTerminal }
        #expect(posting == [.askpass(prompt: "Password: "), Self.touch])
    }

    @Test func onlyTheAgentKeepsARenewalAndWaitsForItsRouteBeforeLoadingAVoice() {
        #expect(Self.every.filter { FrontEndRegistry.run(for: $0).keepsRenewal } == [.agent(query: false)])
        let early = Self.every.filter { FrontEndRegistry.run(for: $0).warmsUpBeforeTheRoute }
        #expect(early == [.prompt, .askpass(prompt: "Password: "), Self.touch, .cryptsetup])
    }

    @Test func aPinentrySaysTheFilesProblemsOnStderrAndWithItsFirstDialog() throws {
        #expect(try run(["--pinentry"]).notices == .standardErrorAndFirstDialog)
        #expect(try run([], programPath: "/usr/bin/pinentry-otc").notices == .standardErrorAndFirstDialog)
        #expect(try run(["--stdin"]).notices == .standardError)
        #expect(try run(["--askpass", "--", "Password: "]).notices == .withTheOpening)
        #expect(FrontEndRegistry.run(for: Self.touch).notices == .withTheOpening)
        #expect(try run(["--doctor"]).notices == .nowhere)
        #expect(try run(["--touch-watch"]).notices == .standardError)
    }

    @Test func aKeyscriptsOwnInputProblemsAreItsNoticesAlone() {
        let environment = ["CRYPTTAB_TRIED": "x", "CRYPTTAB_SOURCE": "/dev/sda2"]
        #expect(!FrontEndRegistry.run(for: .cryptsetup).problems(environment: environment).isEmpty)
        #expect(FrontEndRegistry.run(for: .prompt).problems(environment: environment).isEmpty)
    }
}
