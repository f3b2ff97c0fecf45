/// A spoken yes/no question (askpass with `SSH_ASKPASS_PROMPT=confirm`, ssh-agent's "Allow use
/// of key?", a new host key): keys in, effects out, like `PromptSession`.
///
/// Nothing answers it by accident. The answer is a whole word of the session's language typed and
/// sent with Enter, in any case: "yes" or "no" in English, "sim" or "não" ("nao") in Portuguese,
/// never a single letter; or one of the caller's `labels`. Enter alone, or any other word, asks
/// again and says how to answer. Esc, Ctrl-C and Ctrl-D cancel, never answer no: the caller hears that the
/// question was cancelled (gpg-agent "Operation cancelled", the password agent `-`), as the choices say when they
/// name Escape ("…; Stop, or Escape"). Where ssh takes it (a new
/// host's key), a typed or pasted fingerprint is an answer too, passed on exactly as typed for ssh
/// to compare. A line begun before the question was shown or within `grace` after it never
/// reaches the session, however it ends (`TypeAheadRule.discarded`).
public struct ConfirmSession: Sendable {
    /// The question; a paragraph whose lines ("\n") are shown as lines and said as one flow.
    public let question: String
    /// Lines about the question (an ssh host key's fingerprint, a key's description): shown above it, said after
    /// it, for a key to cut short.
    public var details: [String]
    /// What happened first, said before the question (a request withdrawn, an origin marking).
    public var news: [String] = []
    /// Whether a key fingerprint ("SHA256:…", "MD5:…") is an answer: ssh's new-host question.
    public let acceptsFingerprint: Bool
    /// The caller's names for the answers, said and shown as the choices.
    public let labels: ConfirmLabels
    /// The answers the question's own words name (ssh's "(yes/no/[fingerprint])"): typed whole, they answer too, in
    /// any language, though the language's words are what is said and shown.
    public let namedAnswers: ConfirmLabels
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
    /// Whether this line was told it is past the answer limit: said once, not once a key, until
    /// Enter or a deletion (a stray long line would otherwise flood the voice with the same help).
    private var toldFull = false

    /// Keys typed this soon after the question appears are a leftover, not an answer: at least a
    /// human's reaction time to a new sound or sight (~200 ms), while a burst from a previous prompt
    /// or a paste arrives within a few milliseconds.
    public static let grace: Duration = .milliseconds(300)
    /// Long enough for "SHA256:" and a 43-character fingerprint, with room to spare.
    public static let answerLimit = 128

    public init(
        question: String, details: [String] = [], acceptsFingerprint: Bool = false,
        labels: ConfirmLabels = ConfirmLabels(), namedAnswers: ConfirmLabels = ConfirmLabels(),
        language: Language = .en, verbosity: Verbosity = .normal, timeLimit: Duration? = nil
    ) {
        self.question = question
        self.details = details
        self.acceptsFingerprint = acceptsFingerprint
        self.labels = labels
        self.namedAnswers = namedAnswers
        self.wording = Wording(language: language)
        self.style = Wording.Style(verbosity: verbosity)
        self.clock = SessionClock(timeLimit: timeLimit)
    }

    /// The news, then the question with its choices, then what it is about, what has been typed, a short time
    /// limit, and (unless terse) how to answer; again after a stop, and on Ctrl-R.
    public func start() -> [PromptEffect] {
        let (asked, about) = Wording.askingLine(of: question)
        var details = [Utterance]()
        details.append(wording.openingTimeLeft(clock.spokenTimeLeft))
        if !typed.isEmpty { details.append(Utterance(wording.typedSoFar(String(typed)) + ".")) }
        if !about.isEmpty || !self.details.isEmpty { details.append(wording.sentenceLines(self.details + about)) }
        if style.hints { details.append(wording.questionHow(labels: labels, acceptsFingerprint: acceptsFingerprint)) }
        let lead = wording.questionLead(asked, labels: labels)
        return [.announce(wording.opening(news: news, lead: lead, details: details))]
    }

    public mutating func handle(_ key: Key) -> [PromptEffect] {
        guard !isFinished else { return [] }
        switch key {
        // Before anything is typed, `?` asks for the question again: no answer (a word, a label, a fingerprint)
        // starts with it.
        case .character("?") where typed.isEmpty: return start()
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
            toldFull = false
            return [.announce(Announcement(.delete, wording.deletedFromAnswer(last)))]
        case .clearField:
            typed.removeAll()
            toldFull = false
            return [.announce(Announcement(.clear, wording.answerCleared))]
        case .submit: return submit()
        case .escape, .interrupt, .endOfInput: return finish(.cancelled)
        case .readBack: return start()
        case .timeLeft: return [.announce(Announcement(.timeLeft, clock.timeLeftText(wording)))]
        case .redraw: return [.redraw]
        case .undecodable:
            return [.announce(Announcement(.unreadable, wording.characterNotRead)), .show(wording.characterNotRead)]
        case .ignored, .terminalReport, .suspend, .tab: return []
        }
    }

    /// The lines drawn above the field: the news', the details', then the question's but its last (`snapshot`).
    public var shownLines: [String] {
        (news + details).flatMap(Wording.lines) + Wording.lines(question).dropLast()
    }

    /// What the screen shows: the question's last line, how to answer, and what has been typed.
    public var snapshot: FieldSnapshot {
        FieldSnapshot(
            label: (Wording.lines(question).last ?? question) + " ("
                + (labels.isEmpty
                    ? wording.answerChoices(acceptsFingerprint: acceptsFingerprint) : wording.shownChoices(labels))
                + ")",
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
        guard room > 0, !characters.isEmpty else {
            guard !pasting, announce, !toldFull else { return [] }
            toldFull = room <= 0
            return help()
        }
        typed += characters.prefix(room)
        guard announce, !pasting, let last = characters.first else { return [] }
        return [.announce(Announcement(.digit, wording.answerCharacter(last)))]
    }

    private mutating func submit() -> [PromptEffect] {
        let text = String(typed)
        toldFull = false
        // An answer stays on the screen; anything else is cleared for the next try.
        if let answer = ConfirmAnswer(
            typed: text, wording: wording, labels: labels, acceptsFingerprint: acceptsFingerprint)
            ?? ConfirmAnswer(named: text, namedAnswers)
        {
            return finish(answer)
        }
        typed.removeAll()
        return [.announce(Announcement(.help, text.isEmpty ? howToAnswer : wording.notAnAnswer + " " + howToAnswer))]
    }

    private mutating func finish(_ answer: ConfirmAnswer) -> [PromptEffect] {
        self.answer = answer
        isFinished = true
        switch answer {
        case .yes: return [.announce(Announcement(.confirm, wording.answer(true))), .confirmed(true)]
        case .no: return [.announce(Announcement(.confirm, wording.answer(false))), .confirmed(false)]
        case .cancelled: return [.announce(Announcement(.cancel, wording.cancelled)), .cancel]
        case .fingerprint(let text):
            return [.announce(Announcement(.confirm, wording.fingerprintSent)), .submit(SecretBytes(copying: text))]
        }
    }

    private func help() -> [PromptEffect] {
        [.announce(Announcement(.help, howToAnswer))]
    }

    /// What `?`, Enter alone or a word that answers nothing says: a whole word is needed.
    private var howToAnswer: String {
        labels.isEmpty ? wording.confirmHelp(acceptsFingerprint: acceptsFingerprint) : wording.labelledHow
    }

    /// A line begun as a leftover was dropped whole: said so, so the user types again.
    public func leftoverIgnored() -> [PromptEffect] {
        guard !isFinished else { return [] }
        return [.announce(Announcement(.help, wording.leftoverIgnored))]
    }
}
