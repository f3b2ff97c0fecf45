import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
import OTCPromptLoop
import OTCPromptSettings
import OTCPromptTerminal

/// `--agent`: systemd's password requests, asked one by one at this terminal; with `--query`, those waiting and
/// then the end.
struct AgentFrontEndRun: FrontEndRun {
    let query: Bool

    static let priority = 60
    static var jobOptions: [any AnySetting] { [Settings.agent] }
    static func recognise(_ call: ParsedCall) -> Self? {
        call.commandLine.value(Settings.agent) ? Self(query: call.commandLine.value(Settings.query)) : nil
    }

    /// It keeps what its previous image handed over; it loads espeak-ng only once chosen
    /// (`PromptPolicy.speculatesOnEspeak`): the libraries cannot be unloaded.
    static let needs = FrontEndNeeds(
        opensTerminal: true, postsWithoutTerminal: false, warmsUpBeforeTheRoute: false, keepsRenewal: true,
        notices: .withTheOpening)

    func run(_ context: RunContext) -> Int32 {
        guard let terminal = context.terminal else { return ExitStatus.noTerminal }
        let template = context.withNotices(PromptFrontEnd.request(context.configuration), place: notices)
        // Said by the first image; a renewed one has them on the screen already.
        if context.renewal == nil { for notice in context.notices { terminal.writeLine(notice) } }
        let settings = context.settings
        return AgentProgram(
            template: context.program(request: template, memory: context.memory()),
            frontEnd: AgentFrontEnd(
                language: context.language, verbosity: context.configuration.verbosity,
                echoesUserRequests: settings.value(Settings.agentEchoUserRequests)),
            places: AgentProgram.places(
                option: settings[Settings.agentDirectory], environment: context.environment,
                user: UserAccount.currentUID),
            query: query, renewal: context.renewal, arguments: context.arguments, cuesAtBoot: PCSpeaker.inInitrd
        ).run(on: terminal)
    }
}
