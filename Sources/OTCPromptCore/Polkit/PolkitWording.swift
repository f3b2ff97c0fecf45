/// What a polkit request says, in the user's language: a short question first ("To run id as root: password of
/// admin"), with whose password in it; the action's whole message and who asks are on the screen and said on request (Ctrl-R), since
/// pkexec's message alone ("Authentication is needed to run `/usr/bin/id' as the super user") takes four seconds to
/// say; with several users, a yes/no question for each in turn.
public struct PolkitWording: Sendable {
    public let language: Language
    public let verbosity: Verbosity

    public init(language: Language, verbosity: Verbosity = .normal) {
        self.language = language
        self.verbosity = verbosity
    }

    /// The field for PAM's `prompt` (masked unless `echo`) in `request`: labelled with its short `question`; whose
    /// password (`user`) follows it, then PAM's own question unless it only says "Password"; the action's message
    /// and who asks (`asker`, the program's name) are drawn and said on Ctrl-R; `news` (PAM's messages, a retry's)
    /// is said first.
    public func field(
        request: PolkitRequest, asker: String?, user: String, prompt: String, echo: Bool, news: [String]
    ) -> PromptConfiguration {
        let wording = Wording(language: language)
        let label = question(request, user: user)
        // pkexec's question already says whose password; another action's message does not.
        var details = isRun(request) ? [] : [wording.polkitIdentity(UntrustedText.visible(user))]
        let pamQuestion = Self.trimmed(prompt)
        if !pamQuestion.isEmpty && pamQuestion.lowercased() != "password" { details.append(pamQuestion) }
        var configuration = PromptConfiguration.freeText(
            label: label.isEmpty ? (pamQuestion.isEmpty ? nil : pamQuestion) : label, mask: !echo, language: language,
            verbosity: verbosity)
        configuration.details = details
        let message = UntrustedText.visible(request.message)
        var about: [String] = []
        if !message.isEmpty && Self.withoutFullStop(message) != label { about.append(message) }
        if let asker, !asker.isEmpty { about.append(wording.polkitAsker(UntrustedText.visible(asker))) }
        configuration.aboutOnRequest = about
        configuration.news = news
        configuration.newsSaidOnce = news.count
        return configuration
    }

    /// The question first, short: pkexec's program, the user it runs as and whose password (`user`) answers ("To
    /// run id as root: password of admin", never read as root's password being asked); for any other action, the
    /// first sentence of its message (polkit sends no shorter words for it).
    public func question(_ request: PolkitRequest, user: String) -> String {
        if let (program, target) = run(request) {
            return Wording(language: language).polkitQuestionRun(
                program: UntrustedText.visible(program), as: UntrustedText.visible(target),
                password: UntrustedText.visible(user))
        }
        return Self.firstSentence(UntrustedText.visible(request.message))
    }

    /// pkexec's program (without its directory) and the user it runs as, nil for any other request.
    private func run(_ request: PolkitRequest) -> (program: String, target: String)? {
        guard request.actionID == "org.freedesktop.policykit.exec", let path = request.details["program"],
            let target = request.details["user"], !target.isEmpty,
            let program = path.split(separator: "/").last, !program.isEmpty
        else { return nil }
        return (String(program), target)
    }

    private func isRun(_ request: PolkitRequest) -> Bool { run(request) != nil }

    /// Up to the first sentence's end (". ", a line's end), without its full stop: a field's label is drawn before
    /// its colon. The rest is said on request.
    static func firstSentence(_ text: String) -> String {
        var sentence = ""
        var previous: Character?
        for character in text {
            if character == "\n" || (character == " " && previous == ".") { break }
            sentence.append(character)
            previous = character
        }
        return withoutFullStop(sentence)
    }

    static func withoutFullStop(_ text: String) -> String {
        text.hasSuffix(".") ? String(text.dropLast()) : text
    }

    /// The yes/no question for one of several users who may answer, then the request's short question, its message
    /// and who asks.
    public func identityChoice(user: String, request: PolkitRequest, asker: String?) -> ConfirmSession {
        let wording = Wording(language: language)
        let short = question(request, user: user)
        let message = UntrustedText.visible(request.message)
        var details = [short] + (message == short ? [] : [message])
        if let asker, !asker.isEmpty { details.append(wording.polkitAsker(UntrustedText.visible(asker))) }
        return ConfirmSession(
            question: wording.polkitChooseIdentity(UntrustedText.visible(user)), details: details, language: language,
            verbosity: verbosity)
    }

    /// PAM's messages said and shown while the helper waits and nothing is asked (a fingerprint reader's "Place your
    /// finger"): a notice that Esc cancels, ended by the helper's next line.
    public func waiting(_ lines: [String]) -> NoticeSession {
        let wording = Wording(language: language)
        var notice = NoticeSession(
            message: lines.joined(separator: "\n"), takesEnter: false, language: language, verbosity: verbosity)
        notice.closing = (wording.polkitWaitHint, wording.cancelled)
        notice.reply = wording.polkitWaitHint
        return notice
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
    /// "To run id as root: password of admin": pkexec's question, first; the field's label.
    public func polkitQuestionRun(program: String, as user: String, password owner: String) -> String {
        language.catalog.text("polkit.question.run", program, user, owner)
    }
    /// "Asked by pkexec.": the program that asks, after the action's message.
    public func polkitAsker(_ program: String) -> String { language.catalog.text("polkit.asker", program) }
    /// "Password of admin.": whose password polkit asks.
    public func polkitIdentity(_ user: String) -> String { language.catalog.text("polkit.identity", user) }
    /// "Wrong password, try 2.": said first when the password is asked again.
    public func polkitWrongPassword(attempt: Int) -> String {
        language.catalog.text("polkit.wrongPassword", attempt)
    }
    /// "Nothing to type yet. Escape cancels the request.": while PAM waits for something other than typing.
    public var polkitWaitHint: String { language.catalog.text("polkit.waitHint") }
    /// "Authentication failed.": every try refused.
    public var polkitFailed: String { language.catalog.text("polkit.failed") }
    /// "Authenticate as admin?": one of several users who may answer.
    public func polkitChooseIdentity(_ user: String) -> String {
        language.catalog.text("polkit.chooseIdentity", user)
    }
}
