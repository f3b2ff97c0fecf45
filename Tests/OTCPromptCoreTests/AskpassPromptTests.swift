import Testing

@testable import OTCPromptCore

/// Prompt strings as the real callers send them, trailing blanks included.
@Suite struct AskpassPromptTests {
    private func classify(_ text: String, _ environment: [String: String] = [:]) -> AskpassPrompt {
        AskpassPrompt.classify(text, environment: environment)
    }

    @Test func sshKeyboardInteractiveGoogleAuthenticator() {
        #expect(
            classify("(joe@build.example.org) Verification code: ")
                == AskpassPrompt(
                    kind: .code, label: "Verification code (joe@build.example.org)", origin: "joe@build.example.org"))
    }

    @Test func plainPamVerificationCode() {
        #expect(classify("Verification code: ") == AskpassPrompt(kind: .code, label: "Verification code"))
    }

    @Test(arguments: [
        "One-time password (OATH) for `joe': ", "Enter OTP: ", "Token code: ", "2FA code: ", "Two-factor code: ",
        "Authenticator app code:", "Código de verificação: ", "Codigo de verificacao:", "Senha de uso único: ",
        "(joe@host) One time password: ", "Enter the code from your authenticator app", "Token: ",
    ])
    func codePrompts(text: String) {
        #expect(classify(text).kind == .code)
    }

    @Test func sudoPassword() {
        #expect(
            classify("[sudo] password for joe: ")
                == AskpassPrompt(kind: .secret, label: "password for joe (sudo)", origin: "sudo"))
    }

    @Test(arguments: [
        "Password: ", "(joe@host) Password: ", "Enter passphrase for key '/root/.ssh/id_ed25519': ",
        "Password for 'https://x@github.com': ", "Enter PIN for ED25519-SK key /home/joe/.ssh/id_ed25519_sk: ",
        "Enter PIN for 'PIV Card Holder pin (PIV_II)': ", "Passcode or option (1-3): ",
        "Password or verification code: ", "Personal access token: ", "Enter passphrase for '/home/joe/.ssh/code': ",
        "Senha: ", "Palavra-passe:", "Anything else at all: ", "",
    ])
    func secretPrompts(text: String) {
        #expect(classify(text).kind == .secret)
    }

    @Test(arguments: [
        "Username for 'https://github.com': ", "Username for 'https://token.example': ", "login: ", "Usuário: ",
    ])
    func userNamePromptsAreShownText(text: String) {
        #expect(classify(text).kind == .text)
    }

    @Test func gitUsernameKeepsTheQuotedHostInTheLabel() {
        #expect(classify("Username for 'https://github.com': ").label == "Username for 'https://github.com'")
    }

    /// ssh's and git's questions as said first, in each language: what is asked, and whose (ssh, git), no host.
    @Test(arguments: [
        (Language.en, "SSH password", "Git password", "Git user name"),
        (.de, "SSH-Passwort", "Git-Passwort", "Git-Benutzername"),
        (.es, "Contraseña de SSH", "Contraseña de Git", "Nombre de usuario de Git"),
        (.fr, "Mot de passe SSH", "Mot de passe Git", "Nom d'utilisateur Git"),
        (.pt, "Palavra-passe do SSH", "Palavra-passe do Git", "Nome de utilizador do Git"),
        (.ptBR, "Senha do SSH", "Senha do Git", "Nome de usuário do Git"),
    ])
    func sshAndGitQuestionsAreSaidInTheUsersLanguage(
        language: Language, ssh: String, gitPassword: String, gitUserName: String
    ) {
        let wording = Wording(language: language)
        #expect(wording.sshPassword == ssh)
        #expect(wording.git(userName: false) == gitPassword)
        #expect(wording.git(userName: true) == gitUserName)
    }

    @Test func sshHostKeyQuestionIsAConfirmationWithoutTheHint() {
        let text = """
            The authenticity of host 'build.example.org (192.0.2.7)' can't be established.
            ED25519 key fingerprint is SHA256:3uW0xQk7J2r0vC9cVJgk1m1v4c4qG7mH1Xb9Yz0aBcD.
            This key is not known by any other names.
            Are you sure you want to continue connecting (yes/no/[fingerprint])? 
            """
        let prompt = classify(text)
        #expect(prompt.kind == .confirmation)
        #expect(prompt.label == "Are you sure you want to continue connecting?")
        #expect(prompt.acceptsFingerprint)
        #expect(prompt.namedAnswers == ConfirmLabels(yes: "yes", no: "no"))
        #expect(
            prompt.details == [
                "The authenticity of host 'build.example.org (192.0.2.7)' can't be established.",
                "ED25519 key fingerprint is SHA256:3uW0xQk7J2r0vC9cVJgk1m1v4c4qG7mH1Xb9Yz0aBcD.",
                "This key is not known by any other names.",
            ])
    }

    @Test func aConfirmationThatNamesNoAnswersAcceptsOnlyTheLanguagesWords() {
        let prompt = AskpassPrompt.classify(
            "Allow use of key id_ed25519?", environment: ["SSH_ASKPASS_PROMPT": "confirm"])
        #expect(prompt.kind == .confirmation && prompt.namedAnswers.isEmpty)
    }

    @Test func sshReaskIsAConfirmation() {
        #expect(classify("Please type 'yes', 'no' or the fingerprint: ").kind == .confirmation)
        #expect(classify("Please type 'yes', 'no' or the fingerprint: ").acceptsFingerprint)
        #expect(classify("Please type 'yes' or 'no': ").kind == .confirmation)
    }

    @Test func sshAskpassPromptConfirmWins() {
        let prompt = classify(
            "Allow use of key /home/joe/.ssh/id_ed25519?\nKey fingerprint SHA256:abc.",
            ["SSH_ASKPASS_PROMPT": "confirm"])
        #expect(prompt.kind == .confirmation)
        #expect(!prompt.acceptsFingerprint)
        #expect(prompt.label == "Allow use of key /home/joe/.ssh/id_ed25519?")
        #expect(prompt.details == ["Key fingerprint SHA256:abc."])
    }

    /// A notice that asks nothing (ssh's touch request, chosen before any askpass reading) is read for its lines as a
    /// question is.
    @Test func aPromptsLinesAreReadBeforeWhatItAsks() {
        let lines = AskpassPrompt.Lines("Confirm user presence for key ED25519-SK SHA256:abc")
        #expect(lines.label == "Confirm user presence for key ED25519-SK SHA256:abc")
        #expect(lines.origin == nil && lines.details.isEmpty)
        let asked = AskpassPrompt.Lines("Key fingerprint SHA256:abc.\n(joe@host) Allow use of key?\nThen touch it")
        #expect(asked.label == "Allow use of key? (joe@host)")
        #expect(asked.origin == "joe@host")
        #expect(asked.details == ["Key fingerprint SHA256:abc.", "Then touch it"])
    }

    @Test func anUnknownHintIsIgnored() {
        #expect(classify("Verification code: ", ["SSH_ASKPASS_PROMPT": "other"]).kind == .code)
    }

    @Test func quotedNamesAndTheOriginDoNotDecideTheKind() {
        #expect(classify("(joe@code-server) Password: ").kind == .secret)
        #expect(classify("(token@host) Username: ").kind == .text)
    }

    @Test func originNeedsWordsAfterIt() {
        #expect(AskpassPrompt.splitOrigin("(joe@host)") == (nil, "(joe@host)"))
        #expect(AskpassPrompt.splitOrigin("(unclosed Password") == (nil, "(unclosed Password"))
        #expect(AskpassPrompt.splitOrigin("[sudo]   password") == ("sudo", "password"))
    }
}
