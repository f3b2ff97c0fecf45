import OTCPromptCore

extension PromptLoop {
    /// Takes the voice's start-up outcome once it is in: a usage error ends the prompt; otherwise the
    /// screen changes first (the field's line ended, notices, the renderer for text lines), then what
    /// was said meanwhile is caught up in one announcement (`HeldSpeech.catchUp`).
    mutating func followSpeechStartup() -> PromptOutcome? {
        guard let startup = speechStartup, let outcome = startup.takeOutcome() else { return nil }
        speechStartup = nil
        switch outcome {
        case .failed(let message):
            return .speechFailed(message)
        case .started(let started):
            if started.renderer != nil || !started.notices.isEmpty {
                terminal.write(renderer.finish())
                if let replacement = started.renderer { renderer = replacement }
                for notice in started.notices { terminal.writeLine(notice) }
                draw()
            }
            // During a check the field is with the check: its news is the state, not the opening.
            let checking = runningCheck != nil
            let session = self.session
            started.held.release(to: started.backend) {
                guard !checking else { return nil }
                var copy = session
                return copy.start().lazy.compactMap(\.announcement).first
            }
            return nil
        }
    }
}

extension PromptEffect {
    /// The announcement this effect carries, if it is one.
    var announcement: Announcement? {
        if case .announce(let announcement) = self { return announcement }
        return nil
    }
}
