/// The words a question is answered with, and what is said around them: a caller's labels for the
/// choices (gpg-agent's SETOK, SETNOTOK, SETCANCEL), a notice taken with Enter, a leftover line
/// dropped. Each language has its own answer words, so an English prompt never takes "sim".
extension Wording {
    /// What `typed` answers in this language: true for a yes word, false for a no word, nil for
    /// anything else. Whole words only, any case: a single letter is never an answer.
    public func answerWord(_ typed: String) -> Bool? {
        let word = typed.lowercased()
        if phrases.question.yesWords.contains(word) { return true }
        if phrases.question.noWords.contains(word) { return false }
        return nil
    }

    /// A line begun before the question was shown, or within its grace, was dropped whole.
    public var leftoverIgnored: String { phrases.question.leftoverIgnored }

    /// How to take a notice that Enter acknowledges (pinentry's MESSAGE).
    public var noticeEnterHint: String { phrases.question.noticeEnterHint }

    /// A notice was acknowledged with Enter.
    public var noticeTaken: String { phrases.question.noticeTaken }

    /// The spoken choices of a question with labels: "Choices: Take this one anyway, or yes; …".
    public func labelledChoices(_ labels: ConfirmLabels) -> String {
        let choices = choices(labels).map { label, word in label.map { phrases.question.labelOr($0, word) } ?? word }
        return phrases.question.choices + ": " + choices.joined(separator: "; ") + "."
    }

    /// The choices on the screen: "Take this one anyway=yes / no".
    public func shownChoices(_ labels: ConfirmLabels) -> String {
        choices(labels).map { label, word in label.map { $0 + "=" + word } ?? word }.joined(separator: " / ")
    }

    /// How to answer a question with labels (a whole sentence).
    public var labelledHow: String { phrases.question.labelledHow }

    func choices(_ labels: ConfirmLabels) -> [(label: String?, word: String)] {
        var choices: [(String?, String)] = [(labels.yes, phrases.outcome.yes)]
        // gpg-agent's weak-passphrase warning names OK and Cancel only: "no" still answers, unsaid.
        if labels.no != nil || labels.cancel == nil { choices.append((labels.no, phrases.outcome.no)) }
        if let cancel = labels.cancel { choices.append((cancel, phrases.question.escapeKey)) }
        return choices
    }
}

/// One language's words for `Wording+Question`.
struct QuestionPhrases: Sendable {
    /// The whole words that answer yes, in lower case.
    var yesWords: [String]
    var noWords: [String]
    var leftoverIgnored: String
    var noticeEnterHint: String
    var noticeTaken: String
    /// "Choices"
    var choices: String
    /// "Take this one anyway, or yes"
    var labelOr: @Sendable (_ label: String, _ word: String) -> String
    /// The key that cancels, as a choice: "Escape".
    var escapeKey: String
    var labelledHow: String
}
