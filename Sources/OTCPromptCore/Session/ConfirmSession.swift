/// A spoken yes/no question (askpass with `SSH_ASKPASS_PROMPT=confirm`, ssh-agent's "Allow use
/// of key?", a new host key): keys in, effects out, like `PromptSession`.
///
/// Nothing answers it by accident. The answer is a word typed and sent with Enter: "y" or "yes"
/// ("s" or "sim"), "n" or "no" ("não"), in any case; Enter alone, or any other word, asks again
/// and says how to answer. Esc, Ctrl-C and Ctrl-D answer no. Where ssh takes it (a new host's
/// key), a typed or pasted fingerprint is an answer too, passed on exactly as typed for ssh to
/// compare. Keys typed before the question was shown and `grace` after it never reach the session
/// (`typeAhead`).
public struct ConfirmSession: Sendable {
    public let question: String
    /// Lines said before the question (an ssh host key's fingerprint).
    public var details: [String]
    /// Whether a key fingerprint ("SHA256:…", "MD5:…") is an answer: ssh's new-host question.
    public let acceptsFingerprint: Bool
    public let wording: Wording
    /// The answer, once given.
    public private(set) var answer: ConfirmAnswer?
    /// What has been typed so far, not yet sent with Enter.
    public private(set) var typed: [Character] = []
    /// Answered or timed out: keys do nothing.
    public private(set) var isFinished = false
    private let style: Wording.Style
    var clock: SessionClock
    private var pasting = false

    /// Keys typed this soon after the question appears are a leftover, not an answer: at least a
    /// human's reaction time to a new sound or sight (~200 ms), while a burst from a previous prompt
    /// or a paste arrives within a few milliseconds.
    public static let grace: Duration = .milliseconds(300)
    /// Long enough for "SHA256:" and a 43-character fingerprint, with room to spare.
    public static let answerLimit = 128

    public init(
        question: String, details: [String] = [], acceptsFingerprint: Bool = false, language: Language = .en,
        verbosity: Verbosity = .normal, timeLimit: Duration? = nil
    ) {
        self.question = question
        self.details = details
        self.acceptsFingerprint = acceptsFingerprint
        self.wording = Wording(language: language)
        self.style = Wording.Style(verbosity: verbosity)
        self.clock = SessionClock(timeLimit: timeLimit)
    }

    /// The question, "yes or no", and (unless terse) how to answer; again after a stop.
    public func start() -> [PromptEffect] {
        var text = wording.confirmQuestion(
            question, details: details, acceptsFingerprint: acceptsFingerprint, style: style)
        if !typed.isEmpty { text += " " + wording.typedSoFar(String(typed)) }
        if let left = clock.spokenTimeLeft { text += " " + wording.timeLeft(left) + "." }
        return [.announce(Announcement(.prompt, text))]
    }

    public mutating func handle(_ key: Key) -> [PromptEffect] {
        guard !isFinished else { return [] }
        switch key {
        case .character(let character): return type([character])
        case .pasteBegan:
            pasting = true
            return []
        case .pasteText(let text): return type(Array(text.filter { !$0.isWhitespace }), announce: false)
        case .pasteEnded:
            pasting = false
            return [.announce(Announcement(.paste, wording.typedSoFar(String(typed))))]
        case .unmarkedPaste(let text):
            // Its line break is text, never Enter: a pasted "yes\n" is typed, not answered.
            _ = type(Array(text.filter { !$0.isWhitespace }), announce: false)
            return [.announce(Announcement(.paste, wording.typedSoFar(String(typed))))]
        case .backspace:
            guard let last = typed.popLast() else { return help() }
            return [.announce(Announcement(.delete, wording.deletedFromAnswer(last)))]
        case .clearField:
            typed.removeAll()
            return [.announce(Announcement(.clear, wording.answerCleared))]
        case .submit: return submit()
        case .escape, .interrupt, .endOfInput: return finish(.no)
        case .readBack: return start()
        case .timeLeft: return [.announce(Announcement(.timeLeft, clock.timeLeftText(wording)))]
        case .redraw: return [.redraw]
        case .undecodable:
            return [.announce(Announcement(.unreadable, wording.characterNotRead)), .show(wording.characterNotRead)]
        case .ignored, .suspend: return []
        }
    }

    /// What the screen shows: the question, how to answer, and what has been typed.
    public var snapshot: FieldSnapshot {
        FieldSnapshot(
            label: question + " (" + wording.answerChoices(acceptsFingerprint: acceptsFingerprint) + ")",
            characters: typed, length: Self.answerLimit, mask: false, isError: false)
    }

    /// As `PromptSession.timedOut()`: no answer is no (exit 124, which the caller reads as no).
    public mutating func timedOut() -> [PromptEffect] {
        guard !isFinished else { return [] }
        isFinished = true
        return [.announce(Announcement(.timeout, wording.timeUp)), .timeout]
    }

    private mutating func type(_ characters: [Character], announce: Bool = true) -> [PromptEffect] {
        let room = Self.answerLimit - typed.count
        guard room > 0, !characters.isEmpty else { return pasting || !announce ? [] : help() }
        typed += characters.prefix(room)
        guard announce, !pasting, let last = characters.first else { return [] }
        return [.announce(Announcement(.digit, wording.answerCharacter(last)))]
    }

    private mutating func submit() -> [PromptEffect] {
        let text = String(typed)
        // An answer stays on the screen; anything else is cleared for the next try.
        if let answer = ConfirmAnswer(typed: text, acceptsFingerprint: acceptsFingerprint) { return finish(answer) }
        typed.removeAll()
        let said =
            text.isEmpty
            ? wording.confirmHelp(acceptsFingerprint: acceptsFingerprint)
            : wording.notAnAnswer(
                acceptsFingerprint: acceptsFingerprint)
        return [.announce(Announcement(.help, said))]
    }

    private mutating func finish(_ answer: ConfirmAnswer) -> [PromptEffect] {
        self.answer = answer
        isFinished = true
        switch answer {
        case .yes: return [.announce(Announcement(.confirm, wording.answer(true))), .confirmed(true)]
        case .no: return [.announce(Announcement(.confirm, wording.answer(false))), .confirmed(false)]
        case .fingerprint(let text):
            return [.announce(Announcement(.confirm, wording.fingerprintSent)), .submit(SecretBytes(copying: text))]
        }
    }

    private func help() -> [PromptEffect] {
        [.announce(Announcement(.help, wording.confirmHelp(acceptsFingerprint: acceptsFingerprint)))]
    }
}

/// A deliberate answer to a `ConfirmSession`.
public enum ConfirmAnswer: Equatable, Sendable {
    case yes, no
    /// A key fingerprint, passed on to ssh exactly as typed.
    case fingerprint(String)

    /// The answer `typed` gives, nil when it is none: y, yes, s, sim / n, no, não, nao in any case, or (where
    /// accepted) a fingerprint: "SHA256:" and base64, or "MD5:" and colon-separated hex.
    public init?(typed: String, acceptsFingerprint: Bool) {
        let word = typed.lowercased()
        if ["y", "yes", "s", "sim"].contains(word) {
            self = .yes
        } else if ["n", "no", "não", "nao"].contains(word) {
            self = .no
        } else if acceptsFingerprint, Self.isFingerprint(typed) {
            self = .fingerprint(typed)
        } else {
            return nil
        }
    }

    static func isFingerprint(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        let hash = text[..<colon].uppercased()
        let value = text[text.index(after: colon)...]
        switch hash {
        case "SHA256":
            return value.count >= 40
                && value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+/=".contains($0)) }
        case "MD5":
            return value.count == 47 && value.allSatisfy { $0.isHexDigit || $0 == ":" }
        default:
            return false
        }
    }
}
