/// The announcements as text lines on the terminal, one each, for braille displays and terminal screen readers: an
/// output of its own where the way chosen for speech is text from the start (`--speech text`, SSH with no audio). A
/// voice that fails mid-prompt writes the same lines through the same writer, from its one switch (`SpeechFallback`).
public final class TextLinesOutput: Announcing {
    /// The line writer (`TextSpeechBackend`), with whatever plays beside it (a boot cue's tones).
    public let lines: any SpeechBackend

    public init(_ lines: any SpeechBackend) {
        self.lines = lines
    }

    public func say(_ announcement: Announcement) {
        lines.speak(announcement)
    }

    /// A line is read at the reader's pace, which nothing tells.
    public var isSpeaking: Bool { false }

    /// Nothing to end: each line is written whole when said.
    public func end() {}
    public func close() {}
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
