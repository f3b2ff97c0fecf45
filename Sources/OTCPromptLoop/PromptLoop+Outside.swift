import OTCPromptCore

/// News from outside the prompt (`PromptSystem.outside`): said while the prompt asks, never taking its keys.
extension PromptLoop {
    /// Says what happened outside, if anything: one announcement, and each line shown above the field; kept until
    /// the opening's first sentence has been heard (the voice has stopped, or has spoken past it).
    mutating func sayOutsideNews() -> PromptOutcome? {
        guard let outside = system.outside else { return nil }
        let news = outside.news(openingHeard: !outputs.isSpeaking || now >= HeldKeys.firstSentence)
        guard !news.isEmpty else { return nil }
        let outcome = perform(
            [.announce(Announcement(.notice, Utterance(news.joined(separator: " "))))] + news.map { .show($0) })
        draw()
        return outcome
    }

    /// A readback also says what waits outside, recomputed now: Ctrl-R, or `?` where it typed nothing.
    func withWhatWaits(_ effects: [PromptEffect], after key: Key) -> [PromptEffect] {
        guard let outside = system.outside, key == .readBack || key == .character("?") else { return effects }
        guard let last = effects.lastIndex(where: { if case .announce = $0 { true } else { false } }),
            case .announce(let announcement) = effects[last], announcement.event != .digit,
            let waiting = outside.waiting()
        else { return effects }
        var result = effects
        result[last] = .announce(
            Announcement(
                announcement.event, Self.ended(announcement.utterance) + waiting, isFinal: announcement.isFinal))
        return result
    }

    /// `utterance` ended by one full stop, then a break: "Passphrase for beta:" and "1 more waiting." are
    /// "Passphrase for beta. 1 more waiting.", never "beta:. 1".
    static func ended(_ utterance: Utterance) -> Utterance {
        var segments = utterance.segments
        guard case .words(let words)? = segments.last else { return utterance + .lineBreak(spoken: ". ") }
        segments[segments.count - 1] = .words(AgentModel.sentence(words))
        return Utterance(segments) + .lineBreak(spoken: " ")
    }
}
