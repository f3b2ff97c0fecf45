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
                terminal.write(renderer.finish())
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
            followSpeechFailure()
            return nil
        }
    }

    /// After speaking: when the voice has failed (`SpeechFallback`), the screen switches to text with the
    /// announcements: the field is erased (left on screen it would no longer track what is typed, and a
    /// braille display would read it among the lines), the renderer draws nothing more, and the notice and
    /// the announcements follow in its place, each on a line of its own. Nothing waits for this: a failure
    /// is seen when an announcement is made or the start-up's outcome is taken, through the descriptor the
    /// loop watches.
    mutating func followSpeechFailure() {
        guard let speechFallback, speechFallback.awaitsTextScreen else { return }
        terminal.write(renderer.erase())
        renderer = NullRenderer()
        speechFallback.screenIsText()
    }
}

extension PromptEffect {
    /// The announcement this effect carries, if it is one.
    var announcement: Announcement? {
        if case .announce(let announcement) = self { return announcement }
        return nil
    }
}
