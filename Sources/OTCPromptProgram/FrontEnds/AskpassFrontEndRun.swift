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

    var postsWithoutTerminal: Bool { true }

    func run(_ context: RunContext) -> Int32 {
        let memory = context.memory()
        let request = context.withNotices(
            AskpassFrontEnd.request(
                prompt: prompt, configuration: context.configuration, environment: context.environment,
                askedAgain: memory.isAskedAgain(prompt)),
            place: notices)
        let status: Int32
        if let terminal = context.terminal {
            status = context.program(request: request, memory: memory).run(on: terminal, delivery: Delivery.init)
        } else {
            let agent = AgentQuestion(
                environment: context.environment, timeLimit: context.configuration.timeLimit,
                caller: AgentQuestion.askpassCaller)
            guard let outcome = agent.ask(request) else { return ExitStatus.noTerminal }
            status = agent.deliver(Delivery(outcome))
        }
        if AskpassFrontEnd.remembers(request) {
            memory.remember(prompt, answered: status == ExitStatus.submitted)
        }
        return status
    }
}
