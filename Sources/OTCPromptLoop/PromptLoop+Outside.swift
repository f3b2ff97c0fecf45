import OTCPromptCore

/// News from outside the prompt (`PromptSystem.outside`): said while the prompt asks, never taking its keys.
extension PromptLoop {
    /// Says what happened outside, if anything: one announcement, and each line shown above the field.
    mutating func sayOutsideNews() -> PromptOutcome? {
        guard let outside = system.outside else { return nil }
        let news = outside.news()
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
                announcement.event, announcement.utterance + .lineBreak(spoken: ". ") + waiting,
                isFinal: announcement.isFinal))
        return result
    }
}
