import OTCPromptCore
import OTCPromptHost
import OTCPromptLoop

/// The agent's hold of the keys, as its model decides it (`AgentSteps.holds`): after a request was withdrawn under
/// the user's fingers, every key is held until what came next (the next question, or the wait's line) has been
/// heard and the keys have stopped, and the count said is the model's, however many prompts the hold spanned.
/// The prompt (`PromptLoop.keyHold`) gives it the keys it reads and whether its voice still speaks.
final class AgentHold: KeyHold {
    private let steps: AgentSteps

    init(steps: AgentSteps) { self.steps = steps }

    var isHolding: Bool { steps.holds || steps.hasDropped }

    func take(_ keys: [Key], at time: Duration) -> [Key] {
        guard steps.holds else { return keys }
        // What the terminal sends on its own is no key the user pressed: dropped, not counted.
        let pressed = keys.filter {
            switch $0 {
            case .terminalReport, .pasteBegan, .pasteEnded: false
            default: true
            }
        }
        if !pressed.isEmpty { steps.held(pressed.count, at: Self.now) }
        return []
    }

    func release(at now: Duration, speaking: Bool) -> Int? {
        guard isHolding else { return nil }
        // Heard: the voice has stopped, or has spoken past the opening's first sentence.
        return steps.release(heard: !speaking || now >= HeldKeys.firstSentence, at: Self.now)
    }

    func deadline(at now: Duration, speaking: Bool) -> Duration? {
        guard isHolding else { return nil }
        if steps.hasDropped { return now }
        let heard = !speaking || now >= HeldKeys.firstSentence
        // The model's time is the agent's clock; the prompt's begins with it.
        let quietEnds = steps.holdMayEnd.map { now + max(.zero, $0 - Self.now) } ?? now
        guard !heard else { return quietEnds }
        return max(quietEnds, min(now + HeldKeys.speakingRecheck, HeldKeys.firstSentence))
    }

    private static var now: Duration { .nanoseconds(MonotonicInstant.now.nanoseconds) }
}
