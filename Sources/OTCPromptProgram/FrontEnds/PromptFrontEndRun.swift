import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
import OTCPromptLoop
import OTCPromptSettings
import OTCPromptTerminal

/// `otc-prompt [PROMPT]`: the code field the options describe, asked at the terminal, the code on stdout.
struct PromptFrontEndRun: FrontEndRun {
    /// Last: whatever no other front end recognises is the plain prompt.
    static let priority = Int.max
    static func recognise(_ call: ParsedCall) -> Self? { Self() }

    static let needs = FrontEndNeeds.askedAtTheTerminal

    func run(_ context: RunContext) -> Int32 {
        guard let terminal = context.terminal else { return ExitStatus.noTerminal }
        let request = context.withNotices(PromptFrontEnd.request(context.configuration), place: notices)
        return context.program(request: request, memory: context.memory()).run(on: terminal, delivery: Delivery.init)
    }
}
