/// A spoken yes/no question (askpass with `SSH_ASKPASS_PROMPT=confirm`, ssh-agent's "Allow use
/// of key?", a new host key): keys in, effects out, like `PromptSession`.
///
/// y (or s, "sim", in Portuguese) answers yes; n, Esc and Ctrl-C answer no; Enter answers yes
/// only where the caller takes an empty answer as yes (`enterAnswersYes`). Any other key is
/// answered with which keys answer, so a stray key never decides.
public struct ConfirmSession: Sendable {
    public let question: String
    /// Lines said before the question (an ssh host key's fingerprint).
    public let details: [String]
    public let enterAnswersYes: Bool
    public let wording: Wording
    /// The answer, once given.
    public private(set) var answer: Bool?
    /// Answered or timed out: keys do nothing.
    public private(set) var isFinished = false
    private let style: Wording.Style
    private var clock: SessionClock

    public init(
        question: String, details: [String] = [], enterAnswersYes: Bool = true, language: Language = .en,
        verbosity: Verbosity = .normal, timeLimit: Duration? = nil
    ) {
        self.question = question
        self.details = details
        self.enterAnswersYes = enterAnswersYes
        self.wording = Wording(language: language)
        self.style = Wording.Style(verbosity: verbosity)
        self.clock = SessionClock(timeLimit: timeLimit)
    }

    /// The question, "yes or no", and (unless terse) the keys; again after a stop.
    public func start() -> [PromptEffect] {
        var text = wording.confirmQuestion(question, details: details, enterAnswersYes: enterAnswersYes, style: style)
        if let left = clock.spokenTimeLeft { text += " " + wording.timeLeft(left) + "." }
        return [.announce(Announcement(.prompt, text))]
    }

    public mutating func handle(_ key: Key) -> [PromptEffect] {
        guard !isFinished else { return [] }
        switch key {
        case .character(let character):
            let letter = Character(character.lowercased())
            if letter == "y" || letter == wording.yesLetter { return answer(true) }
            if letter == "n" { return answer(false) }
            return help()
        case .submit: return enterAnswersYes ? answer(true) : help()
        case .escape, .interrupt, .endOfInput: return answer(false)
        case .readBack: return start()
        case .timeLeft: return [.announce(Announcement(.timeLeft, clock.timeLeftText(wording)))]
        case .redraw: return [.redraw]
        case .pasteEnded: return help()
        case .backspace, .clearField: return help()
        case .pasteBegan, .pasteText, .ignored, .suspend: return []
        }
    }

    /// What the screen shows: the question and, once given, the answer's letter.
    public var snapshot: FieldSnapshot {
        let shown: [Character] =
            switch answer {
            case true?: [wording.yesLetter]
            case false?: ["n"]
            case nil: []
            }
        return FieldSnapshot(
            label: question + " (" + String(wording.yesLetter) + "/n)", characters: shown, length: 1, mask: false,
            isError: false)
    }

    /// As `PromptSession.tick(at:)`.
    public mutating func tick(at now: Duration) -> [PromptEffect] {
        guard !isFinished else { return [] }
        return clock.effects(at: now, wording) ?? timedOut()
    }

    public func nextDeadline(after now: Duration) -> Duration? {
        isFinished ? nil : clock.nextDeadline(after: now)
    }

    /// As `PromptSession.timedOut()`: no answer is no (exit 124, which the caller reads as no).
    public mutating func timedOut() -> [PromptEffect] {
        guard !isFinished else { return [] }
        isFinished = true
        return [.announce(Announcement(.timeout, wording.timeUp)), .timeout]
    }

    private mutating func answer(_ yes: Bool) -> [PromptEffect] {
        answer = yes
        isFinished = true
        return [.announce(Announcement(.confirm, wording.answer(yes))), .confirmed(yes)]
    }

    private func help() -> [PromptEffect] {
        [.announce(Announcement(.help, wording.confirmHelp(enterAnswersYes: enterAnswersYes)))]
    }
}
