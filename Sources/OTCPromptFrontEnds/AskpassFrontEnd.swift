import OTCPromptCore

/// SSH_ASKPASS, SUDO_ASKPASS, GIT_ASKPASS: the prompt text, read by `AskpassPrompt.classify`, says what is asked;
/// the answer goes out as the plain prompt's (`Delivery`), and whether it was answered is remembered
/// (`AskMemory`) so that the same question asked again is said to be a retry.
public enum AskpassFrontEnd {
    /// What `prompt` asks for, with the options' language, limits and check.
    /// - Parameters:
    ///   - askedAgain: the caller asks the question it was just answered (`AskMemory.isAskedAgain`).
    ///   - login: the name of the account running the prompt (the password database's, not the caller's
    ///     environment's); `isAccount`: whether a name is an account here. They tell sudo's question (`sudoLabel`).
    public static func request(
        prompt: String, configuration: PromptConfiguration, environment: [String: String], askedAgain: Bool,
        login: String? = nil, isAccount: (String) -> Bool = { _ in false }
    ) -> Request {
        let askpass = AskpassPrompt.classify(prompt, environment: environment)
        var field: PromptConfiguration
        switch askpass.kind {
        case .code:
            field = configuration
            field.label = askpass.label
        case .secret:
            field = configuration.freeText(label: askpass.label, mask: true)
            let wording = Wording(language: configuration.language)
            if let sudo = sudoLabel(
                askpass, words: AskpassPrompt.Lines(prompt).words, login: login, wording: wording,
                isAccount: isAccount)
            {
                field.label = sudo
                field.aboutOnRequest = [askpass.label]
            }
        case .text:
            field = configuration.freeText(label: askpass.label, mask: false)
        case .confirmation:
            return .question(
                ConfirmSession(
                    question: askpass.label, details: askpass.details, acceptsFingerprint: askpass.acceptsFingerprint,
                    namedAnswers: askpass.namedAnswers, language: configuration.language,
                    verbosity: configuration.verbosity,
                    timeLimit: configuration.timeLimit))
        }
        field.details = askpass.details
        // sudo's "Sorry, try again." is printed on the terminal, never spoken: say it, first.
        if askedAgain {
            field.news.insert(Wording(language: configuration.language).previousAnswerNotAccepted, at: 0)
        }
        // A key typed before the field appeared belongs to the previous prompt (or the shell): no answer.
        return Request(.field(field), typeAhead: .discarded(grace: .zero))
    }

    /// sudo's "[sudo] password for joe: " (its default prompt, in the caller's locale) said as the question first,
    /// "Sudo password", within the opening's first seconds: the account is named only where it is not the login's own
    /// (sudo's targetpw or rootpw ask for the target's or root's), since the user's own name tells them nothing.
    /// The account is the question's last word, where it is one here; any other prompt of sudo's ("[sudo] PIN for
    /// the card") keeps its own words (nil).
    static func sudoLabel(
        _ askpass: AskpassPrompt, words: String, login: String?, wording: Wording, isAccount: (String) -> Bool
    ) -> String? {
        let parts = words.split(separator: " ")
        guard askpass.origin == "sudo", parts.count > 1, let last = parts.last.map(String.init), isAccount(last)
        else { return nil }
        return wording.sudoPassword(account: last == login ? nil : last)
    }

    /// Whether the request is remembered after its answer: only a field's (a question asked again is a new one).
    public static func remembers(_ request: Request) -> Bool { request.isField }
}
