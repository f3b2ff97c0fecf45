extension Wording {
    /// Why announcements became text lines, said once when the voice fails or never starts (`SpeechFallback`):
    /// "speech-dispatcher stopped answering; announcements shown as text".
    public func speechFallback(_ failure: SpeechFailure) -> String {
        let words = phrases.speechFallback
        let why: String
        switch failure {
        case .noAudioDevice: why = words.unavailable(words.noAudioDevice)
        case .audioServerDidNotAnswer(let server, let limit):
            why = words.unavailable(words.audioServerDidNotAnswer(server, Self.seconds(limit)))
        case .audioDeviceNotReady(let limit): why = words.unavailable(words.audioDeviceNotReady(Self.seconds(limit)))
        case .libraryUnavailable(let problem): why = words.unavailable(UntrustedText.visible(problem))
        case .speechDispatcherUnavailable(let problem): why = UntrustedText.visible(problem)
        case .speechDispatcherStopped: why = words.speechDispatcherStopped
        case .audioFileStopped(let path, let reason):
            why = words.audioFileStopped(UntrustedText.visible(path), UntrustedText.visible(reason))
        }
        return why + "; " + words.shownAsText
    }

    /// "2 s", "1.5 s": a limit as a person reads it (the unit's symbol is the same in every language).
    static func seconds(_ duration: Duration) -> String {
        let (whole, attoseconds) = duration.components
        let tenths = attoseconds / 100_000_000_000_000_000
        return tenths == 0 ? "\(whole) s" : "\(whole).\(tenths) s"
    }
}

/// One language's words for `Wording.speechFallback`.
struct SpeechFallbackPhrases: Sendable {
    /// "speech unavailable: no audio device"
    var unavailable: @Sendable (_ why: String) -> String
    var noAudioDevice: String
    /// "the audio server (PulseAudio) did not answer within 2 s"
    var audioServerDidNotAnswer: @Sendable (_ server: String, _ limit: String) -> String
    /// "the audio device did not start within 3 s"
    var audioDeviceNotReady: @Sendable (_ limit: String) -> String
    var speechDispatcherStopped: String
    /// "the audio file /tmp/fifo takes no more audio (no reader)"
    var audioFileStopped: @Sendable (_ path: String, _ why: String) -> String
    /// "announcements shown as text"
    var shownAsText: String
}
