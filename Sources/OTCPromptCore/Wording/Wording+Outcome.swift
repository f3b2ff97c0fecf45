/// The words of what happens around the field: the `--check` verdict, the time left under
/// `--timeout`, and the yes/no question of askpass confirmation.
extension Wording {
    /// The character that filled the field and sent it to the check: the character alone (the
    /// verdict follows), its count in mask mode.
    public func sentToCheck(_ character: Character, field: CodeField, style: Style) -> Utterance {
        if style.mask { return Utterance(phrases.bullet + ", " + position(field)) }
        return style.verbose ? say(character, field, style) + ", " + position(field) : say(character, field, style)
    }

    /// The check has been running a while (said once, after 500 ms).
    public var checking: String { phrases.outcome.checking }

    /// The check accepted the code: the last words before the code is printed.
    public func checkAccepted(field: CodeField) -> String {
        phrases.outcome.accepted(field.kind)
    }

    /// The check rejected the code: "code rejected: invalid token. 2 attempts left."
    ///
    /// - Parameters:
    ///   - errorLine: the first line the check wrote to stderr, already judged safe to say.
    ///   - newAttempt: the field after the keys typed during the check were applied, when they
    ///     left something in it; nil when the rejected code is still shown.
    public func checkRejected(
        errorLine: String?, attemptsLeft: Int, newAttempt: CodeField?, field: CodeField, style: Style
    ) -> Utterance {
        var text = Utterance(phrases.outcome.rejected(field.kind))
        if let line = errorLine?.trimmingTrailingStops(), !line.isEmpty { text += ": " + line }
        text += ". " + phrases.outcome.attemptsLeft(attemptsLeft) + "."
        guard attemptsLeft > 0 else { return text }
        if let newAttempt, !newAttempt.isEmpty {
            let value = style.mask ? Utterance(entered(newAttempt)) : spell(newAttempt, style)
            text += " " + phrases.outcome.newAttempt + (style.mask ? ", " : ": ") + value + "."
        } else if style.hints {
            text += " " + phrases.outcome.typeAgain(field.kind)
        }
        return text
    }

    /// The check could not run: "the check could not run: the shell could not find the command: sh: 1:
    /// oathtol: not found". Not a verdict on the code.
    public func checkCouldNotRun(reason: String, errorLine: String?) -> String {
        var text = phrases.outcome.checkCouldNotRun + ": " + reason
        if let line = errorLine?.trimmingTrailingStops(), !line.isEmpty { text += ": " + line }
        return text
    }

    /// What a check that did not answer in time is reported as (it counts as a rejection).
    public var checkTimedOut: String { phrases.outcome.checkTimedOut }

    /// "30 seconds left", "about 1 minute 20 seconds left".
    public func timeLeft(_ duration: SpokenDuration) -> String {
        phrases.outcome.timeLeft(duration)
    }

    /// Ctrl-T without `--timeout`.
    public var noTimeLimit: String { phrases.outcome.noTimeLimit }

    /// The time ran out: the last words before exit status 124.
    public var timeUp: String { phrases.outcome.timeUp }

    /// Paragraphs said one after another, each ending like a sentence. The lines of one paragraph
    /// ("\n" inside it: gpg's wrapped description) are one flow, with no sentence end invented where
    /// a line was merely wrapped; a line that ends in a stop ends its sentence by itself.
    public func sentences(_ paragraphs: [String]) -> String {
        paragraphs.map(Self.flowed).map { $0.endsInStop ? $0 : $0 + "." }.joined(separator: " ")
    }

    /// `sentences` with its line breaks kept (`Utterance.lineBreak`): each line of a paragraph its own
    /// line, a blank line between paragraphs; said and logged exactly as `sentences`.
    public func sentenceLines(_ paragraphs: [String]) -> Utterance {
        var result = Utterance([])
        for (index, paragraph) in paragraphs.enumerated() {
            if index > 0 { result += .lineBreak(blankLine: true) }
            var previous: String?
            for line in Self.lines(paragraph) {
                if let last = previous?.last {
                    let flows = ".?!:,;".contains(last) || line.first.map { $0.isLetter && $0.isLowercase } == true
                    result += .lineBreak(spoken: flows ? " " : ", ")
                }
                result += line
                previous = line
            }
            if !Self.flowed(paragraph).endsInStop { result += "." }
        }
        return result
    }

    /// A paragraph's lines joined into one line to be said: a line that goes on in lower case was
    /// wrapped and flows on; one that a new line follows in upper case or digits ("Number: 0006 …",
    /// "Holder: Alice") is an item, heard with a comma's pause, never a sentence end.
    public static func flowed(_ paragraph: String) -> String {
        var text = ""
        for line in lines(paragraph) {
            if let last = text.last {
                let flows = ".?!:,;".contains(last) || line.first.map { $0.isLetter && $0.isLowercase } == true
                text += flows ? " " : ", "
            }
            text += line
        }
        return text
    }

    /// A paragraph's lines, as the screen shows them.
    public static func lines(_ paragraph: String) -> [String] {
        paragraph.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    /// Enter alone at the question: how to answer it.
    public func confirmHelp(acceptsFingerprint: Bool) -> String {
        phrases.outcome.confirmHow(acceptsFingerprint)
    }

    /// A word sent with Enter that answers nothing (how to answer follows it).
    public var notAnAnswer: String { phrases.outcome.notAnAnswer }

    /// What the screen shows after the question: "yes/no", "yes/no/fingerprint".
    public func answerChoices(acceptsFingerprint: Bool) -> String {
        phrases.outcome.answerChoices(acceptsFingerprint)
    }

    /// A character typed into the answer, as it is said on its own.
    public func answerCharacter(_ character: Character) -> Utterance {
        .characters([[phrases.symbolName(character) ?? String(character)]])
    }

    /// Backspace in the answer: "deleted s".
    public func deletedFromAnswer(_ character: Character) -> Utterance {
        phrases.deleted + " " + answerCharacter(character)
    }

    /// Ctrl-U in the answer.
    public var answerCleared: String { phrases.cleared }

    /// The answer typed so far, as a paste leaves it or on Ctrl-R: "typed: yes".
    public func typedSoFar(_ text: String) -> String {
        text.isEmpty ? phrases.empty : phrases.outcome.typed + ": " + text
    }

    /// A fingerprint was sent to ssh, which compares it with the host's key.
    public var fingerprintSent: String { phrases.outcome.fingerprintSent }

    /// Said before a question its caller asks again after rejecting the answer (sudo's "Sorry, try
    /// again.", ssh's "Permission denied", which only reach the screen).
    public var previousAnswerNotAccepted: String { phrases.outcome.previousAnswerNotAccepted }

    /// Bytes the terminal sent were no character in its charset (a Latin-1 `é` on a UTF-8 locale):
    /// nothing of them is said, only that they were not added.
    public var characterNotRead: String { phrases.outcome.characterNotRead }

    /// Enter on free text that lost a character: it is not submitted until the user has heard this.
    public var submitWithoutLostCharacter: String { phrases.outcome.submitWithoutLostCharacter }

    /// The configuration file did not answer in time; `file` as the user would type it.
    public func configFileTooSlow(_ file: String, seconds: Int) -> String {
        phrases.outcome.configFileTooSlow(file, seconds)
    }

    /// How a notice that needs no answer is closed: "Escape closes this notice."
    public var noticeHint: String { phrases.outcome.noticeHint }

    /// The user closed a notice before its caller ended it.
    public var noticeClosed: String { phrases.outcome.noticeClosed }

    /// ssh waits for a touch of the security key that holds its key: "Touch your security key."
    public var touchSecurityKey: String { phrases.outcome.touchSecurityKey }

    /// The answer given: "yes" or "no".
    public func answer(_ yes: Bool) -> String {
        yes ? phrases.outcome.yes : phrases.outcome.no
    }

    /// Ctrl-Z refused: a caller waits for the answer (gpg-agent), or nothing could resume the
    /// process (`code=$(otc-prompt)`); the field stays as it was either way.
    public func cannotSuspend(whileCallerWaits: Bool) -> String {
        whileCallerWaits ? phrases.outcome.cannotSuspendWhileCallerWaits : phrases.outcome.cannotSuspendHere
    }
}

/// One language's words for `Wording+Outcome`.
struct OutcomePhrases: Sendable {
    var checking: String
    /// "code accepted"; free text: "accepted"
    var accepted: @Sendable (FieldKind) -> String
    /// "code rejected"; free text: "not accepted"
    var rejected: @Sendable (FieldKind) -> String
    /// "2 attempts left", "No attempts left": the start of a sentence.
    var attemptsLeft: @Sendable (Int) -> String
    /// "Type a new code." (a whole sentence)
    var typeAgain: @Sendable (FieldKind) -> String
    var newAttempt: String
    var checkTimedOut: String
    /// "the check could not run"
    var checkCouldNotRun: String
    var timeLeft: @Sendable (SpokenDuration) -> String
    var noTimeLimit: String
    var timeUp: String
    var yes: String
    var no: String
    /// "yes or no"
    var yesOrNo: String
    /// "Type yes or no, then press Enter." (a whole sentence)
    var confirmHow: @Sendable (_ acceptsFingerprint: Bool) -> String
    /// "Not an answer." (a whole sentence)
    var notAnAnswer: String
    /// "yes/no", "yes/no/fingerprint"
    var answerChoices: @Sendable (_ acceptsFingerprint: Bool) -> String
    /// "typed"
    var typed: String
    var fingerprintSent: String
    var noticeHint: String
    var noticeClosed: String
    var touchSecurityKey: String
    var previousAnswerNotAccepted: String
    var characterNotRead: String
    var submitWithoutLostCharacter: String
    var configFileTooSlow: @Sendable (_ file: String, _ seconds: Int) -> String
    // Ctrl-Z that cannot stop the prompt.
    var cannotSuspendWhileCallerWaits: String
    var cannotSuspendHere: String
}

extension String {
    /// Without the full stops (and blanks) a line ends with, so a sentence can be added after it.
    func trimmingTrailingStops() -> String {
        var text = Substring(self)
        while let last = text.last, last == "." || last.isWhitespace { text.removeLast() }
        return String(text)
    }

    /// Ends like a sentence already: ".", "?", "!" or ":".
    var endsInStop: Bool {
        guard let last else { return false }
        return ".?!:".contains(last)
    }
}
