import OTCPromptCore
import OTCPromptSettings
import Testing

@testable import OTCPromptProgram

/// `--polkit-agent`: how it is chosen, what it carries and what it needs.
@Suite struct PolkitFrontEndRunTests {
    private func chosen(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
        try FrontEndChoiceTests.chosen(arguments, environment: environment)
    }

    @Test func itIsChosenByItsOptionWithTheProcessItServes() throws {
        #expect(try chosen(["--polkit-agent"]) == String(describing: PolkitFrontEndRun(process: nil)))
        #expect(
            try chosen(["--polkit-agent", "--process", "4242"]) == String(describing: PolkitFrontEndRun(process: 4242)))
        // An askpass variable exported in the shell does not turn the agent into an askpass.
        #expect(
            try chosen(["--polkit-agent"], environment: ["SSH_ASKPASS_PROMPT": "none"])
                == String(describing: PolkitFrontEndRun(process: nil)))
        // `--process` alone names no job.
        #expect(try chosen(["--process", "4242"]) == String(describing: PromptFrontEndRun()))
    }

    @Test func itOpensNoTerminalBeforeARequestAndLoadsNoVoiceEarly() {
        #expect(!PolkitFrontEndRun.needs.opensTerminal)
        #expect(!PolkitFrontEndRun.needs.warmsUpBeforeTheRoute)
        #expect(FrontEnds.namesAJob("--polkit-agent"))
    }

    @Test func theProcessOptionTakesAProcessID() {
        #expect((try? CommandLineParser.parse(["--polkit-agent", "--process", "0"]).get()) == nil)
        #expect((try? CommandLineParser.parse(["--polkit-agent", "--process", "abc"]).get()) == nil)
    }

    @Test func aFieldsPolicyIsWithdrawnByItsPipeAndDeclinesAtOnce() {
        var declined = false
        let policy = PromptPolicy.polkitAgent(withdrawal: 7) { declined = true }
        #expect(policy.caller == [7])
        #expect(policy.callerIsInProcess)
        #expect(!policy.keepsRawMode)
        #expect(!policy.speculatesOnEspeak)
        policy.declines?()
        #expect(declined)
    }
}
