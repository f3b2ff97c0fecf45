import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptLoop
import OTCPromptTerminal

/// ssh's security-key notice (`TouchFrontEnd`): said at the terminal until ssh ends it; with no terminal, posted for
/// the user's password agent as an askpass's question is (`AgentQuestion`).
struct TouchFrontEndRun: FrontEndRun {
    /// ssh's text, as data.
    let prompt: String

    /// Just before the askpass, whose call it is too: ssh's hint tells it apart (`TouchFrontEnd.isTouch`).
    static let priority = 70
    static func recognise(_ call: ParsedCall) -> Self? {
        guard AskpassFrontEndRun.recognise(call) != nil, TouchFrontEnd.isTouch(environment: call.environment),
            let prompt = call.prompt
        else { return nil }
        return Self(prompt: prompt)
    }

    static let needs = FrontEndNeeds(
        opensTerminal: true, postsWithoutTerminal: true, warmsUpBeforeTheRoute: true, keepsRenewal: false,
        notices: .withTheOpening)

    func run(_ context: RunContext) -> Int32 {
        let request = context.withNotices(
            TouchFrontEnd.request(prompt: prompt, configuration: context.configuration), place: notices)
        // Nothing is remembered of a notice: the memory is read for the run's one-time notices only.
        return context.askOrPost(request, memory: context.memory())
    }
}
