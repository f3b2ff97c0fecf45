import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptSettings

/// `--polkit-agent`: polkit's requests asked at this terminal (`PolkitAgentProgram`), for `--process` or the login
/// session. It opens the terminal for each request only: a shell shares it the rest of the time.
struct PolkitFrontEndRun: FrontEndRun {
    let process: Int32?

    /// It loads espeak-ng only once a request comes, as the password agent does: an agent mostly waits.
    let needs = FrontEndNeeds(
        opensTerminal: false, postsWithoutTerminal: false, warmsUpBeforeTheRoute: false, keepsRenewal: false,
        notices: .standardError)

    func run(_ context: RunContext) -> Int32 {
        context.writeNoticesOnStandardError()
        let template = PromptFrontEnd.request(context.configuration)
        var program = context.program(request: template, memory: context.memory())
        program.speculatesOnEspeak = false
        return PolkitAgentProgram(
            template: program,
            wording: PolkitWording(language: context.language, verbosity: context.configuration.verbosity),
            process: process
        ).run()
    }
}
