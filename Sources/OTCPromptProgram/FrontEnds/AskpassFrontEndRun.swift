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

    let needs = FrontEndNeeds(
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
