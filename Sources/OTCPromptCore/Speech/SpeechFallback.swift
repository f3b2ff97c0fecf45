/// Why speech stopped, or never started, as a backend reports it: the wording says it
/// (`Wording.speechFallback`), once, in the user's language.
public enum SpeechFailure: Equatable, Sendable {
    /// No audio device could be opened.
    case noAudioDevice
    /// The audio server (`server`, e.g. PulseAudio) did not answer within `limit`.
    case audioServerDidNotAnswer(server: String, within: Duration)
    /// espeak-ng and the audio device did not start within `limit`.
    case audioDeviceNotReady(within: Duration)
    /// A speech library could not be loaded; `problem` names it and says why.
    case libraryUnavailable(problem: String)
    /// The user's speech-dispatcher could not be reached or refused us; `problem` is its error.
    case speechDispatcherUnavailable(problem: String)
    /// speech-dispatcher went away or stopped answering during the prompt.
    case speechDispatcherStopped
    /// `--audio-file` stopped taking audio (a FIFO whose reader stopped reading or went away).
    case audioFileStopped(path: String, why: String)

    /// A failure found while the voice started: the same machine will have it again at the next prompt,
    /// so its notice is given once per login session, not on every call.
    public var isAtStartUp: Bool {
        switch self {
        case .noAudioDevice, .audioServerDidNotAnswer, .audioDeviceNotReady, .libraryUnavailable,
            .speechDispatcherUnavailable:
            return true
        case .speechDispatcherStopped, .audioFileStopped: return false
        }
    }
}

/// A voice that can stop in the middle of a prompt. It never falls back by itself: it reports why it
/// stopped and hands back what it was given and will never say; `SpeechFallback` does the rest.
public protocol FallibleSpeechBackend: SpeechBackend {
    /// Why it stopped; nil while it speaks.
    var failure: SpeechFailure? { get }
    /// Once it has failed: the announcements it was given and will not say, oldest first (taken once).
    func takeUnsaid() -> [Announcement]
}

/// The voice that turned out not to be there (the start-up's outcome when speech is unavailable): it keeps
/// what it is given, for the text lines that replace it.
public final class UnavailableVoice: FallibleSpeechBackend {
    public let failure: SpeechFailure?
    private var unsaid: [Announcement] = []

    public init(_ failure: SpeechFailure) { self.failure = failure }
    public func speak(_ announcement: Announcement) { unsaid.append(announcement) }
    public func finish(timeout: Duration) {}
    public func takeUnsaid() -> [Announcement] {
        defer { unsaid = [] }
        return unsaid
    }
}

/// The one switch from speech to text lines, for every voice (espeak-ng on a device or into an audio
/// file, speech-dispatcher) and for the start-up: when the voice fails, the reason is said once, and the
/// screen and the announcements become text together.
///
/// The switch needs the screen: the field must be erased and its renderer replaced by the text one before
/// the first text line, or the notice is glued to the field, later echoes land on it, and a field left on
/// screen no longer tracks what is typed. So a failure
/// seen while the loop speaks is held (`awaitsTextScreen`) until the loop has done that and calls
/// `screenIsText()`; a failure seen once the prompt is over (at `finish`, the field's line already ended)
/// switches at once. Only the loop's thread calls any of this.
public final class SpeechFallback: SpeechBackend {
    private enum State {
        case voice
        /// Failed; waiting for the loop to erase the field. `notice` is nil when it was given already
        /// in this login session.
        case failed(notice: String?, unsaid: [Announcement])
        case text
    }

    private let voice: any FallibleSpeechBackend
    private let text: any SpeechBackend
    private let wording: Wording
    private let isFirstTime: (String) -> Bool
    private var state = State.voice

    /// - Parameters:
    ///   - text: where text lines go (`TextSpeechBackend` on the terminal).
    ///   - isFirstTime: whether a start-up notice is new in this login session (the live one remembers it
    ///     in the state directory); a failure during the prompt is always said.
    public init(
        voice: any FallibleSpeechBackend, text: any SpeechBackend, wording: Wording,
        isFirstTime: @escaping (String) -> Bool = { _ in true }
    ) {
        self.voice = voice
        self.text = text
        self.wording = wording
        self.isFirstTime = isFirstTime
    }

    public func speak(_ announcement: Announcement) {
        switch state {
        case .voice:
            voice.speak(announcement)
            followVoice()
        case .failed(let notice, let unsaid): state = .failed(notice: notice, unsaid: unsaid + [announcement])
        case .text: text.speak(announcement)
        }
    }

    public func finish(timeout: Duration) {
        if case .voice = state {
            voice.finish(timeout: timeout)
            followVoice()
        } else {
            voice.finish(timeout: .zero)  // releases what it holds; nothing more is awaited from it
        }
        // The prompt is over and its line ended: the held lines go out now.
        screenIsText()
        text.finish(timeout: timeout)
    }

    public var newsDescriptor: Int32? {
        if case .voice = state { return voice.newsDescriptor }
        return nil
    }

    public func takeNews() {
        guard case .voice = state else { return }
        voice.takeNews()
        followVoice()
    }

    /// True once the voice has failed and the screen is still the field's: the loop erases the field,
    /// takes the text renderer, then calls `screenIsText()`.
    public var awaitsTextScreen: Bool {
        followVoice()
        if case .failed = state { return true }
        return false
    }

    /// The screen shows text lines now: the notice, on a line of its own, then what the voice did not say.
    public func screenIsText() {
        guard case .failed(let notice, let unsaid) = state else { return }
        state = .text
        if let notice { text.speak(Announcement(.notice, notice)) }
        for announcement in unsaid { text.speak(announcement) }
    }

    /// Whether the voice still has something to say; text lines are read at the reader's pace, which nothing tells.
    public var isSpeaking: Bool {
        if case .voice = state { return voice.isSpeaking }
        return false
    }

    public var progress: SpeechProgress? {
        switch state {
        case .voice: voice.progress
        case .text: text.progress
        default: nil
        }
    }

    /// Whether announcements are text lines by now.
    public var isText: Bool {
        if case .voice = state { return false }
        return true
    }

    private func followVoice() {
        guard case .voice = state, let failure = voice.failure else { return }
        let notice = "otc-prompt: " + wording.speechFallback(failure)
        let said = !failure.isAtStartUp || isFirstTime(notice)
        state = .failed(notice: said ? notice : nil, unsaid: voice.takeUnsaid())
    }
}
