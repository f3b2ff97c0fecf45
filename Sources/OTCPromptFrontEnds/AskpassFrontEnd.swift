import OTCPromptCore

/// SSH_ASKPASS, SUDO_ASKPASS, GIT_ASKPASS: the prompt text, read by `AskpassPrompt.classify`, says what is asked;
/// the answer goes out as the plain prompt's (`Delivery`), and whether it was answered is remembered
/// (`AskMemory`) so that the same question asked again is said to be a retry.
public enum AskpassFrontEnd {
    /// What `prompt` asks for, with the options' language, limits and check.
    /// - Parameters:
    ///   - askedAgain: the caller asks the question it was just answered (`AskMemory.isAskedAgain`).
    ///   - login: the name of the account running the prompt (the password database's, not the caller's
    ///     environment's); `isAccount`: whether a name is an account here. They tell sudo's question (`shortLabel`).
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
        // The question first: the caller's whole line (the host, the URL, the account) drawn above the field and
        // said on Ctrl-R, where a short label of ours says what is asked.
        if let short = shortLabel(
            askpass, words: AskpassPrompt.Lines(prompt).words, login: login,
            wording: Wording(language: configuration.language), isAccount: isAccount)
        {
            field.label = short
            field.aboutOnRequest = [askpass.label]
        }
        // sudo's "Sorry, try again." is printed on the terminal, never spoken: say it, first.
        if askedAgain {
            field.news.insert(Wording(language: configuration.language).previousAnswerNotAccepted, at: 0)
        }
        // A key typed before the field appeared belongs to the previous prompt (or the shell): no answer.
        return Request(.field(field), typeAhead: .discarded(grace: .zero))
    }

    /// Whether the request is remembered after its answer: only a field's (a question asked again is a new one).
    public static func remembers(_ request: Request) -> Bool { request.isField }
}
