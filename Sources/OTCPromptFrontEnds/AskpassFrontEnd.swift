import OTCPromptCore

/// SSH_ASKPASS, SUDO_ASKPASS, GIT_ASKPASS: the prompt text, read by `AskpassPrompt.classify`, says what is asked;
/// the answer goes out as the plain prompt's (`Delivery`), and whether it was answered is remembered
/// (`AskMemory`) so that the same question asked again is said to be a retry.
public enum AskpassFrontEnd {
    /// What `prompt` asks for, with the options' language, limits and check.
    /// - Parameter askedAgain: the caller asks the question it was just answered (`AskMemory.isAskedAgain`).
    public static func request(
        prompt: String, configuration: PromptConfiguration, environment: [String: String], askedAgain: Bool
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
