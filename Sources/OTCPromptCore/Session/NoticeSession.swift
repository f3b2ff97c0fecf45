/// A notice that needs no answer: ssh's "Confirm user presence for key …" (`SSH_ASKPASS_PROMPT=none`),
/// shown and spoken while the user touches their security key. ssh ends the askpass program with
/// SIGTERM once the key has been touched; Esc, Ctrl-C or Ctrl-D close the notice sooner.
public struct NoticeSession: Sendable {
    public let message: String
    /// Lines said before the message.
    public var details: [String]
    public let wording: Wording
    public private(set) var isFinished = false
    private let style: Wording.Style
    var clock: SessionClock

    public init(
        message: String, details: [String] = [], language: Language = .en, verbosity: Verbosity = .normal,
        timeLimit: Duration? = nil
    ) {
        self.message = message
        self.details = details
        self.wording = Wording(language: language)
        self.style = Wording.Style(verbosity: verbosity)
        self.clock = SessionClock(timeLimit: timeLimit)
    }

    /// The details and the message, then (unless terse) how to close it.
    public func start() -> [PromptEffect] {
        var parts = details.isEmpty ? [] : [wording.sentences(details)]
        parts.append(wording.sentences([message]))
        if style.hints { parts.append(wording.noticeHint) }
        return [.announce(Announcement(.prompt, parts.joined(separator: " ")))]
    }

    public mutating func handle(_ key: Key) -> [PromptEffect] {
        guard !isFinished else { return [] }
        switch key {
        case .escape, .interrupt, .endOfInput:
            isFinished = true
            return [.announce(Announcement(.cancel, wording.noticeClosed)), .cancel]
        case .readBack: return start()
        case .timeLeft: return [.announce(Announcement(.timeLeft, clock.timeLeftText(wording)))]
        case .redraw: return [.redraw]
        case .character, .submit, .backspace, .clearField, .pasteEnded, .unmarkedPaste, .undecodable:
            return [.announce(Announcement(.help, wording.noticeHint))]
        case .pasteBegan, .pasteText, .ignored, .suspend: return []
        }
    }

    /// The message alone: there is nothing to type.
    public var snapshot: FieldSnapshot {
        FieldSnapshot(label: message, characters: [], length: 0, mask: false, isError: false)
    }

    public mutating func timedOut() -> [PromptEffect] {
        guard !isFinished else { return [] }
        isFinished = true
        return [.announce(Announcement(.timeout, wording.timeUp)), .timeout]
    }
}
