import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptLoop
import OTCPromptTerminal

/// ssh's security-key notice (`TouchFrontEnd`): said at the terminal until ssh ends it; with no terminal, posted for
/// the user's password agent as an askpass's question is (`AgentQuestion`).
struct TouchFrontEndRun: FrontEndRun {
    /// ssh's text, as data.
    let prompt: String

    var postsWithoutTerminal: Bool { true }

    func run(_ context: RunContext) -> Int32 {
        let request = context.withNotices(
            TouchFrontEnd.request(prompt: prompt, configuration: context.configuration), place: notices)
        if let terminal = context.terminal {
            // Nothing is remembered of a notice: the memory is read for the run's one-time notices only.
            return context.program(request: request, memory: context.memory()).run(
                on: terminal, delivery: Delivery.init)
        }
        let agent = AgentQuestion(
            environment: context.environment, timeLimit: context.configuration.timeLimit,
            caller: AgentQuestion.askpassCaller)
        guard let outcome = agent.ask(request) else { return ExitStatus.noTerminal }
        return agent.deliver(Delivery(outcome))
    }
}
