/// Where announcements go to be heard (or read). The core decides what to say; a backend
/// decides how it reaches the user.
///
/// Implementations: the espeak-ng backend (OTCPromptSpeech), the text backend (one line per
/// announcement on the terminal, for braille displays and terminal screen readers: `TextLinesOutput`), the silent
/// backend, and the recording backend used by tests (OTCPromptTestSupport).
public protocol SpeechBackend: AnyObject {
    /// Speaks `announcement`, superseding whatever is still being spoken. Never blocks on audio.
    func speak(_ announcement: Announcement)
    /// Lets the last announcement play to its end, waiting at most `timeout`, then releases
    /// the device. Called once, just before the prompt exits.
    func finish(timeout: Duration)
    /// A descriptor the loop watches while the voice waits for news of its own to act on (speech-dispatcher's word
    /// that the opening ended, or was cut by a screen reader and must be sent again); nil when it waits for none.
    var newsDescriptor: Int32? { get }
    /// Acts on that news, without waiting; the loop calls it when it wakes.
    func takeNews()
    /// Whether something given is still to be heard: waiting, being made, or playing. False where nothing says
    /// when it was heard (text lines, nothing at all).
    var isSpeaking: Bool { get }
    /// How far it got with the newest announcement given, for the speech log; nil where nothing says (no voice).
    var progress: SpeechProgress? { get }
}

extension SpeechBackend {
    public var newsDescriptor: Int32? { nil }
    public func takeNews() {}
    public var isSpeaking: Bool { false }
    public var progress: SpeechProgress? { nil }
}

/// Says nothing: for `--speech none`, when the user's own screen reader already echoes keys.
public final class SilentSpeechBackend: SpeechBackend {
    public init() {}
    public func speak(_ announcement: Announcement) {}
    public func finish(timeout: Duration) {}
}
