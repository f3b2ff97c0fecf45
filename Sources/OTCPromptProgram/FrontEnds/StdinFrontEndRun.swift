import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
import OTCPromptLoop
import OTCPromptSettings
import OTCPromptTerminal

/// `--stdin`: one line of standard input, checked like a paste; nothing is shown or said.
struct StdinFrontEndRun: ChosenByItsFlag {
    static let priority = 40
    static let flag = Settings.stdin

    static let needs = FrontEndNeeds.withoutTheTerminal(notices: .standardError)

    func run(_ context: RunContext) -> Int32 {
        context.writeNoticesOnStandardError()
        return StandardInputCode.run(
            configuration: context.configuration, check: context.check, environment: context.environment)
    }
}
