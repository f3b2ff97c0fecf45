import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
import OTCPromptLoop
import OTCPromptSettings
import OTCPromptTerminal

/// `--stdin`: one line of standard input, checked like a paste; nothing is shown or said.
struct StdinFrontEndRun: FrontEndRun {
    static let priority = 40
    static var jobOptions: [any AnySetting] { [Settings.stdin] }
    static func recognise(_ call: ParsedCall) -> Self? { call.commandLine.value(Settings.stdin) ? Self() : nil }

    static let needs = FrontEndNeeds(
        opensTerminal: false, postsWithoutTerminal: false, warmsUpBeforeTheRoute: false, keepsRenewal: false,
        notices: .standardError)

    func run(_ context: RunContext) -> Int32 {
        context.writeNoticesOnStandardError()
        return StandardInputCode.run(
            configuration: context.configuration, check: context.check, environment: context.environment)
    }
}
