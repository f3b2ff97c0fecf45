import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptLoop
import OTCPromptSettings
import Testing

/// An askpass caller's prompt text becomes a request; its outcome goes out on stdout and in the exit status.
@Suite struct AskpassFrontEndTests {
    private let options = PromptConfiguration(length: 6, language: .en, timeLimit: .seconds(30))

    private func request(_ prompt: String, _ environment: [String: String] = [:], askedAgain: Bool = false)
        -> Request
    {
        AskpassFrontEnd.request(
            prompt: prompt, configuration: options, environment: environment, askedAgain: askedAgain)
    }

    private func fieldOf(_ request: Request) -> PromptConfiguration? {
        if case .field(let configuration) = request.ask { return configuration }
        return nil
    }

    /// sudo's "[sudo] password for NAME: " in any language: "Sudo password" first; the account named where it is not
    /// the login's own (rootpw, targetpw); sudo's words drawn above and said on Ctrl-R; any other prompt unchanged.
    @Test func sudosQuestionComesFirstAndNamesOnlyAnotherAccount() throws {
        let accounts = ["joe", "root", "christopher.kowalski"]
        func sudo(_ prompt: String, login: String, language: Language = .en) throws -> PromptConfiguration {
            var configuration = options
            configuration.language = language
            return try #require(
                fieldOf(
                    AskpassFrontEnd.request(
                        prompt: prompt, configuration: configuration, environment: [:], askedAgain: false,
                        login: login, isAccount: accounts.contains)))
        }
        let own = try sudo("[sudo] password for christopher.kowalski: ", login: "christopher.kowalski")
        #expect(own.label == "Sudo password")
        #expect(own.aboutOnRequest == ["password for christopher.kowalski (sudo)"])
        #expect(own.details.isEmpty)
        #expect(try sudo("[sudo] password for root: ", login: "joe").label == "Sudo password for root")
        #expect(try sudo("[sudo] Passwort für joe: ", login: "joe", language: .de).label == "Sudo-Passwort")
        #expect(try sudo("[sudo] PIN for the card: ", login: "joe").label == "PIN for the card (sudo)")
        #expect(try sudo("[sudo] password for nobody-here: ", login: "joe").label == "password for nobody-here (sudo)")
        #expect(try sudo("password for joe: ", login: "joe").label == "password for joe")
    }

    /// Nothing typed: Ctrl-R says the opening again with sudo's own words; once typed, it counts as before.
    @Test func ctrlRBeforeTypingSaysSudosOwnWords() throws {
        let field = try #require(
            fieldOf(
                AskpassFrontEnd.request(
                    prompt: "[sudo] password for joe: ", configuration: options, environment: [:], askedAgain: false,
                    login: "joe", isAccount: { $0 == "joe" })))
        var session = PromptSession(configuration: field)
        let said = { (effects: [PromptEffect]) in
            effects.compactMap { if case .announce(let announcement) = $0 { announcement.text } else { nil } }.joined()
        }
        let opening = said(session.start())
        #expect(opening.hasPrefix("Sudo password. Type it, then Enter."))
        #expect(!opening.contains("joe"))
        let again = said(session.handle(.readBack))
        #expect(again.hasPrefix("Sudo password. Type it, then Enter."))
        #expect(again.contains("password for joe (sudo)"))
    }

    /// ssh's and git's questions: the question first, short; their own line, with the host or URL, drawn above the
    /// field (always on screen) and said on Ctrl-R; a host-key question and any other wording unchanged.
    @Test func sshAndGitQuestionsComeFirstWithTheirHostShownAbove() throws {
        func asked(_ prompt: String, _ language: Language = .en) throws -> (
            label: String, about: [String], shown: [String]
        ) {
            var configuration = options
            configuration.language = language
            let asked = AskpassFrontEnd.request(
                prompt: prompt, configuration: configuration, environment: [:], askedAgain: false, login: "joe",
                isAccount: { $0 == "joe" })
            let field = try #require(fieldOf(asked))
            return (field.label, field.aboutOnRequest, asked.details)
        }
        let ssh = try asked("alice@host.example's password: ")
        #expect(ssh.label == "SSH password")
        #expect(ssh.about == ["alice@host.example's password"])
        #expect(ssh.shown == ["alice@host.example's password"])
        #expect(try asked("alice@host.example's password: ", .de).label == "SSH-Passwort")
        let totp = try asked("(alice@host) Verification code: ")
        #expect(totp.label == "Verification code")
        #expect(totp.shown == ["Verification code (alice@host)"])
        #expect(try asked("(alice@host) Password: ").label == "Password")
        let git = try asked("Password for 'https://alice@git.example.org': ")
        #expect(git.label == "Git password")
        #expect(git.shown == ["Password for 'https://alice@git.example.org'"])
        #expect(try asked("Username for 'https://git.example.org': ").label == "Git user name")
        #expect(try asked("Username for 'https://git.example.org': ", .fr).label == "Nom d'utilisateur Git")
        // Other words are said as given, with nothing more on request.
        let key = try asked("Enter passphrase for key '/home/joe/.ssh/id_ed25519': ")
        #expect(key.label == "Enter passphrase for key '/home/joe/.ssh/id_ed25519'")
        #expect(key.about.isEmpty)
        #expect(try asked("Password for alice: ").label == "Password for alice")
        #expect(try asked("@host's password: ").label == "@host's password")
        let hostKey = request(
            "The authenticity of host 'h' can't be established.\nAre you sure (yes/no/[fingerprint])?")
        guard case .question(let question) = hostKey.ask else { throw Failure("not a question: \(hostKey.ask)") }
        #expect(question.question == "Are you sure?")
    }

    /// ssh's opening says the question, not the host; Ctrl-R before typing says the host too.
    @Test func ctrlRBeforeTypingSaysWhichHostAsks() throws {
        let field = try #require(fieldOf(request("alice@build.example.org's password: ")))
        var session = PromptSession(configuration: field)
        let said = { (effects: [PromptEffect]) in
            effects.compactMap { if case .announce(let announcement) = $0 { announcement.text } else { nil } }.joined()
        }
        let opening = said(session.start())
        #expect(opening.hasPrefix("SSH password. Type it, then Enter."))
        #expect(!opening.contains("build"))
        #expect(said(session.handle(.readBack)).contains("alice@build.example.org's password"))
    }

    @Test func aCodePromptGetsTheOptionsCodeField() throws {
        let field = try #require(fieldOf(request("(joe@host) Verification code: ")))
        #expect(field.kind == .code)
        #expect(field.length == 6)
        #expect(field.label == "Verification code")
        #expect(field.aboutOnRequest == ["Verification code (joe@host)"])
        #expect(request("Verification code: ").drawsBoxes)
    }

    @Test func aPasswordPromptGetsAMaskedFreeTextField() throws {
        let field = try #require(fieldOf(request("[sudo] password for joe: ")))
        #expect(field.kind == .freeText)
        #expect(field.mask)
        #expect(field.timeLimit == .seconds(30))
        #expect(!request("[sudo] password for joe: ").drawsBoxes)
    }

    @Test func aUserNamePromptIsShownAsTyped() throws {
        let field = try #require(fieldOf(request("Username for 'https://example.org': ")))
        #expect(field.kind == .freeText)
        #expect(!field.mask)
    }

    @Test func aHostKeyQuestionIsAYesNoQuestionThatTakesTheFingerprint() throws {
        let asked = request("The authenticity of host 'h' can't be established.\nAre you sure (yes/no/[fingerprint])?")
        guard case .question(let question) = asked.ask else { throw Failure("not a question: \(asked.ask)") }
        #expect(question.acceptsFingerprint)
        #expect(question.details == ["The authenticity of host 'h' can't be established."])
        #expect(!asked.isField)
        #expect(asked.typeAhead == .discarded(grace: ConfirmSession.grace))
    }

    /// A key typed before the field appeared belongs to the previous prompt.
    @Test func aCallersFieldTakesNoTypeAhead() {
        #expect(request("Password: ").typeAhead == .discarded(grace: .zero))
        #expect(PromptFrontEnd.request(options).typeAhead == .kept)
    }

    @Test(arguments: Language.allCases)
    func aQuestionAskedAgainSaysTheAnswerWasNotAccepted(language: Language) throws {
        var options = self.options
        options.language = language
        let again = AskpassFrontEnd.request(
            prompt: "Password: ", configuration: options, environment: [:], askedAgain: true)
        let field = try #require(fieldOf(again))
        #expect(field.news.first == Wording(language: language).previousAnswerNotAccepted, "said first")
        #expect(try #require(fieldOf(request("Password: "))).news.isEmpty)
    }

    @Test func onlyAFieldsAnswerIsRemembered() {
        #expect(AskpassFrontEnd.remembers(request("Password: ")))
        #expect(!AskpassFrontEnd.remembers(request("Continue (yes/no)?")))
    }

    @Test func thePlainPromptWithAnyCharsetAsksForAMaskedSecret() throws {
        var options = self.options
        options.charset = .any
        let field = try #require(fieldOf(PromptFrontEnd.request(options)))
        #expect(field.kind == .freeText)
        #expect(field.mask)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
