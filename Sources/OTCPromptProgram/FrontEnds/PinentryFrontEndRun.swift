import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
import OTCPromptLoop
import OTCPromptSettings
import OTCPromptTerminal

/// `--pinentry`, or run as `pinentry-otc`: gpg-agent's Assuan dialogs, each on the terminal it names.
struct PinentryFrontEndRun: FrontEndRun {
    let needs = FrontEndNeeds(
        opensTerminal: false, postsWithoutTerminal: false, warmsUpBeforeTheRoute: false, keepsRenewal: false,
        notices: .standardErrorAndFirstDialog)

    func run(_ context: RunContext) -> Int32 {
        // A template: each dialog sets its own request.
        let template = context.withNotices(PromptFrontEnd.request(context.configuration), place: notices)
        return PinentryProgram(
            template: context.program(request: template, memory: context.memory()),
            frontEnd: PinentryFrontEnd(
                language: context.language, verbosity: context.settings.value(Settings.verbosity)),
            configNotices: PinentryProgram.OnceLines(context.notices)
        ).run()
    }
}
