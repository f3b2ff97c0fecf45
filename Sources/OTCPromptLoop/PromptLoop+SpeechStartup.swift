import OTCPromptCore

extension PromptLoop {
    /// Takes the voice's start-up outcome once it is in: a usage error ends the prompt; otherwise notices
    /// are written above the field, then what was said meanwhile is caught up in one announcement
    /// (`HeldSpeech.catchUp`), in text lines when the voice turned out not to be there.
    mutating func followSpeechStartup() -> PromptOutcome? {
        guard let startup = speechStartup, let outcome = startup.takeOutcome() else { return nil }
        speechStartup = nil
        switch outcome {
        case .failed(let message):
            return .speechFailed(message)
        case .started(let started):
            if !started.notices.isEmpty {
                outputs.show(lines: started.notices, alsoSaid: false)
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
            outputs.followSpeechFailure()
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
