import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptSettings

/// `--polkit-agent`: polkit's requests asked at this terminal (`PolkitAgentProgram`), for `--process` or the login
/// session. It opens the terminal for each request only: a shell shares it the rest of the time.
struct PolkitFrontEndRun: FrontEndRun {
    /// `--process`: the one process whose requests it answers.
    let process: Int32?

    static let priority = 55
    static var jobOptions: [any AnySetting] { [Settings.polkitAgent] }
    static func recognise(_ call: ParsedCall) -> Self? {
        guard call.commandLine.value(Settings.polkitAgent) else { return nil }
        return Self(process: call.commandLine[Settings.process].map { Int32(clamping: $0) })
    }

    /// No terminal before a request comes; espeak-ng loaded only then, as the password agent's: an agent mostly
    /// waits, and the libraries cannot be unloaded.
    static let needs = FrontEndNeeds(
        opensTerminal: false, postsWithoutTerminal: false, warmsUpBeforeTheRoute: false, keepsRenewal: false,
        notices: .standardError)

    func run(_ context: RunContext) -> Int32 {
        context.writeNoticesOnStandardError()
        return PolkitAgentProgram(
            template: context.program(request: PromptFrontEnd.request(context.configuration), memory: context.memory()),
            wording: PolkitWording(language: context.language, verbosity: context.configuration.verbosity),
            process: process
        ).run()
    }
}
