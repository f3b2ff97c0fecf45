/// A notice that needs no answer: ssh's "Confirm user presence for key …" (`SSH_ASKPASS_PROMPT=none`),
/// shown and spoken while the user touches their security key. ssh ends the askpass program with
/// SIGTERM once the key has been touched; Esc, Ctrl-C or Ctrl-D close the notice sooner. A notice
/// that `takesEnter` (gpg-agent's MESSAGE and one-button CONFIRM, "Please insert the card") is
/// acknowledged with Enter instead; Esc, Ctrl-C or Ctrl-D close it too, and gpg-agent hears OK
/// either way, as from pinentry-tty, where any key continues.
public struct NoticeSession: Sendable {
    public let message: String
    /// Lines about the message: shown above it, said after it and its hint, for a key to cut short.
    public var details: [String]
    /// What happened first, said before the message (a request withdrawn).
    public var news: [String] = []
    /// Enter acknowledges it (a pinentry MESSAGE); otherwise only its caller or a closing key ends it.
    public let takesEnter: Bool
    public let wording: Wording
    /// How it closes, where the plain hint would not do (a wait whose closing stops its program; a report whose hint
    /// offers the rest on Enter): the hint said with it and the word said on closing. Its caller's words.
    public var closing: (hint: String, closed: String)?
    /// Drawn but not said when it opens: it is already on the screen and was heard (a notice drawn again, woken by a
    /// key that its answer alone should follow). Ctrl-R still says it, and so does its return after a stop.
    public var opensSilently = false
    /// When the details are said: with the opening, or only when asked for (`DetailsTold`).
    public var detailsTold = DetailsTold.withTheOpening
    private var detailsSaid = false
    /// What a key that does nothing here is told (a wait: that nothing is there to answer yet); nil: how to close the
    /// notice. `?` then reads the notice again, as Ctrl-R does.
    public var reply: String?
    public private(set) var isFinished = false
    private let style: Wording.Style
    var clock: SessionClock

    public init(
        message: String, details: [String] = [], takesEnter: Bool = false, language: Language = .en,
        verbosity: Verbosity = .normal, timeLimit: Duration? = nil
    ) {
        self.message = message
        self.details = details
        self.takesEnter = takesEnter
        self.wording = Wording(language: language)
        self.style = Wording.Style(verbosity: verbosity)
        self.clock = SessionClock(timeLimit: timeLimit)
    }

    /// The details and the message, then (unless terse) how to close it; nothing the first time when it
    /// `opensSilently` (after a stop, it is said again as any prompt is).
    public mutating func start() -> [PromptEffect] {
        defer { opensSilently = false }
        return opensSilently ? [] : opening()
    }

    /// - Parameter asked: Ctrl-R or `?` asked for it again, which says details told `onReadBack` too.
    private func opening(asked: Bool = false) -> [PromptEffect] {
        // Each part on its own line in text mode (`Utterance.lineBreak`), as the caller wrote it.
        let lead = wording.noticeLead(message, hint: style.hints || takesEnter ? hint : nil)
        let said = detailsTold == .withTheOpening || (asked && detailsTold == .onReadBack)
        let about = details.isEmpty || !said ? Utterance([]) : wording.sentenceLines(details)
        return [.announce(wording.opening(news: news, lead: lead, details: [about]))]
    }

    public mutating func handle(_ key: Key) -> [PromptEffect] {
        guard !isFinished else { return [] }
        switch key {
        case .escape, .interrupt, .endOfInput:
            isFinished = true
            return [.announce(Announcement(.cancel, closing?.closed ?? wording.noticeClosed)), .cancel]
        case .submit where takesEnter && detailsTold == .onEnter && !detailsSaid && !details.isEmpty:
            detailsSaid = true
            let then = wording.noticeEnterHint
            return [.announce(Announcement(.readback, wording.sentenceLines(details) + .lineBreak() + then))]
        case .submit where takesEnter:
            isFinished = true
            return [.announce(Announcement(.confirm, wording.noticeTaken)), .confirmed(true)]
        case .readBack, .character("?"): return opening(asked: true)
        case .timeLeft: return [.announce(Announcement(.timeLeft, clock.timeLeftText(wording)))]
        case .redraw: return [.redraw]
        case .character, .submit, .backspace, .clearField, .pasteEnded, .unmarkedPaste, .undecodable, .tab:
            return [.announce(Announcement(.help, reply ?? hint))]
        case .ignored where reply != nil: return [.announce(Announcement(.help, reply ?? hint))]
        case .pasteBegan, .pasteText, .ignored, .terminalReport, .suspend: return []
        }
    }

    /// How to close it: the caller's words (`closing`), else "press Enter" where Enter acknowledges it.
    private var hint: String { closing?.hint ?? (takesEnter ? wording.noticeEnterHint : wording.noticeHint) }

    /// A line begun as a leftover was dropped whole, its Enter too: said so.
    public func leftoverIgnored() -> [PromptEffect] {
        guard !isFinished, takesEnter else { return [] }
        return [.announce(Announcement(.help, wording.leftoverIgnored))]
    }

    /// The lines drawn above it: the news', the details' (unless Enter says them: they are on the screen already,
    /// as the doctor's report), then the message's but its last (`snapshot`).
    public var shownLines: [String] {
        (news + (detailsTold == .onEnter ? [] : details)).flatMap(Wording.lines) + Wording.lines(message).dropLast()
    }

    /// The message's last line alone: there is nothing to type.
    public var snapshot: FieldSnapshot {
        let last = Wording.lines(message).last ?? message
        return FieldSnapshot(
            label: takesEnter ? last + " (" + wording.phrases.pressEnter + ")" : last, characters: [], length: 0,
            mask: false, isError: false)
    }

    public mutating func timedOut() -> [PromptEffect] {
        guard !isFinished else { return [] }
        isFinished = true
        return [.announce(Announcement(.timeout, wording.timeUp)), .timeout]
    }
}

extension NoticeSession {
    /// When a notice's details are said.
    public enum DetailsTold: Sendable {
        /// After the message and its hint, for a key to cut short.
        case withTheOpening
        /// When Enter asks for them, and the next Enter closes it: a long report whose message is its summary
        /// (`--doctor`), so that nothing holds the keys behind 30 s of speech. They are not drawn above it.
        case onEnter
        /// Drawn above it, and said when Ctrl-R or `?` reads the notice again: the caller's own words behind a
        /// message that says what to do (ssh's "Confirm user presence for key …" behind "Touch your security key.").
        case onReadBack
    }
}
