/// Where announcements go to be heard (or read). The core decides what to say; a backend
/// decides how it reaches the user.
///
/// Implementations: the espeak-ng backend (OTCPromptSpeech), the text backend (one line per
/// announcement on the terminal, for braille displays and terminal screen readers), the silent
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

/// Writes each announcement as its own line, through `writeLine`, for braille displays and
/// terminal screen readers (`--speech text`).
public final class TextSpeechBackend: SpeechBackend {
    private let writeLine: (String) -> Void
    /// A line is read as soon as it is written: each announcement begins and ends to be heard then.
    public private(set) var progress: SpeechProgress?

    /// - Parameter writeLine: receives each announcement's text, without a line ending.
    public init(writeLine: @escaping (String) -> Void) {
        self.writeLine = writeLine
    }

    /// Control characters never reach the terminal raw, whatever an announcement quotes (a label, a
    /// check's error line). An announcement with line breaks (an opening: gpg's lines, the news, the
    /// question) is written as those lines.
    public func speak(_ announcement: Announcement) {
        for line in announcement.lines { writeLine(UntrustedText.visible(line)) }
        progress = SpeechProgress(number: (progress?.number ?? 0) + 1, began: nil, heardBy: nil, heardWhenGiven: true)
    }

    public func finish(timeout: Duration) {}
}
