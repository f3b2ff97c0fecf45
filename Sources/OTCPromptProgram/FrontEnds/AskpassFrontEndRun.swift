import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
import OTCPromptLoop
import OTCPromptSettings
import OTCPromptTerminal

/// SSH_ASKPASS, SUDO_ASKPASS, GIT_ASKPASS: the caller's prompt says what is asked; with no terminal, the question is
/// posted for the user's password agent (`AgentQuestion`).
struct AskpassFrontEndRun: FrontEndRun {
    /// The caller's prompt, as data.
    let prompt: String

    /// After every option that names a job: `--askpass` beside `--stdin` is the line read from stdin.
    static let priority = 80

    /// A caller's prompt is data: an askpass call (ssh, sudo -A, git, with the prompt alone) is read as
    /// `--askpass -- PROMPT`, and a wrapper's last argument is its prompt (`AskpassArguments`).
    static func argumentsToParse(_ call: FrontEndCall) -> [String]? {
        AskpassArguments.forParsing(
            call.arguments, environment: call.environment, programPath: call.programPath,
            standardOutput: call.standardOutput, namesAJob: FrontEnds.namesAJob)
    }

    /// `--askpass` with its prompt; without one there is nothing to read, and the plain prompt runs.
    static func recognise(_ call: ParsedCall) -> Self? {
        guard call.commandLine.value(Settings.askpass), let prompt = call.prompt else { return nil }
        return Self(prompt: prompt)
    }

    static let needs = FrontEndNeeds(
        opensTerminal: true, postsWithoutTerminal: true, warmsUpBeforeTheRoute: true, keepsRenewal: false,
        notices: .withTheOpening)

    func run(_ context: RunContext) -> Int32 {
        let memory = context.memory()
        let request = context.withNotices(
            AskpassFrontEnd.request(
                prompt: prompt, configuration: context.configuration, environment: context.environment,
                askedAgain: memory.isAskedAgain(prompt), login: UserAccount.current.name,
                isAccount: UserAccount.exists),
            place: notices)
        let status = context.askOrPost(request, memory: memory)
        if AskpassFrontEnd.remembers(request) {
            memory.remember(prompt, answered: status == ExitStatus.submitted)
        }
        return status
    }
}
