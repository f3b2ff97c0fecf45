/// What a polkit request says, in the user's language: the action's message first (the question), then who asks,
/// then whose password; with several users, a yes/no question for each in turn.
public struct PolkitWording: Sendable {
    public let language: Language
    public let verbosity: Verbosity

    public init(language: Language, verbosity: Verbosity = .normal) {
        self.language = language
        self.verbosity = verbosity
    }

    /// The field for PAM's `prompt` (masked unless `echo`): labelled with the action's `message`; who asks
    /// (`asker`, the program's name) and whose password (`user`) follow it; `news` (PAM's messages, a retry's)
    /// is said first. PAM's own question is a detail too, unless it only says "Password".
    public func field(
        message: String, asker: String?, user: String, prompt: String, echo: Bool, news: [String]
    ) -> PromptConfiguration {
        let wording = Wording(language: language)
        let label = UntrustedText.visible(message)
        var details: [String] = []
        if let asker, !asker.isEmpty { details.append(wording.polkitAsker(UntrustedText.visible(asker))) }
        details.append(wording.polkitIdentity(UntrustedText.visible(user)))
        let question = Self.trimmed(prompt)
        if !question.isEmpty && question.lowercased() != "password" { details.append(question) }
        var configuration = PromptConfiguration.freeText(
            label: label.isEmpty ? (question.isEmpty ? nil : question) : label, mask: !echo, language: language,
            verbosity: verbosity)
        configuration.details = details
        configuration.news = news
        configuration.newsSaidOnce = news.count
        return configuration
    }

    /// The yes/no question for one of several users who may answer, after the action's `message` and who asks.
    public func identityChoice(user: String, message: String, asker: String?) -> ConfirmSession {
        let wording = Wording(language: language)
        var details = [UntrustedText.visible(message)]
        if let asker, !asker.isEmpty { details.append(wording.polkitAsker(UntrustedText.visible(asker))) }
        return ConfirmSession(
            question: wording.polkitChooseIdentity(UntrustedText.visible(user)), details: details, language: language,
            verbosity: verbosity)
    }

    /// PAM's question without the colon and spaces around it: "Password: " is "Password".
    static func trimmed(_ prompt: String) -> String {
        var text = Substring(prompt)
        while let last = text.last, last == " " || last == ":" { text = text.dropLast() }
        while let first = text.first, first == " " { text = text.dropFirst() }
        return String(text)
    }
}

extension Wording {
    /// "Asked by pkexec.": the program that asks, after the action's message.
    public func polkitAsker(_ program: String) -> String { language.catalog.text("polkit.asker", program) }
    /// "Password of admin.": whose password polkit asks.
    public func polkitIdentity(_ user: String) -> String { language.catalog.text("polkit.identity", user) }
    /// "Wrong password, try 2.": said first when the password is asked again.
    public func polkitWrongPassword(attempt: Int) -> String {
        language.catalog.text("polkit.wrongPassword", attempt)
    }
    /// "Authentication failed.": every try refused.
    public var polkitFailed: String { language.catalog.text("polkit.failed") }
    /// "Authenticate as admin?": one of several users who may answer.
    public func polkitChooseIdentity(_ user: String) -> String {
        language.catalog.text("polkit.chooseIdentity", user)
    }
}
