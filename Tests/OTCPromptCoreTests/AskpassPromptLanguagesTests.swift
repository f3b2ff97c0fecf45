import Testing

@testable import OTCPromptCore

/// Callers' prompts in the user's locale are read with every catalog's keywords. The sudo and
/// Linux-PAM prompts are their translations as installed (`msgunfmt /usr/share/locale/LL/LC_MESSAGES/sudo.mo`);
/// OpenSSH's prompts are not translated, so ssh asks in English whatever the locale.
@Suite struct AskpassPromptLanguagesTests {
    private func kind(_ text: String) -> AskpassPrompt.Kind {
        AskpassPrompt.classify(text, environment: [:]).kind
    }

    @Test(arguments: [
        // sudo's "[sudo] password for %p: " and "%p's password: ", PAM's "Password: ".
        "[sudo] contraseña para ana: ", "contraseña de ana: ", "Contraseña: ", "Contraseña actual: ",
        "[sudo] Mot de passe de marie : ", "Mot de passe de marie : ", "Mot de passe : ",
        "[sudo] Passwort für jan: ", "jan's Passwort: ", "Passwort: ", "Kennwort: ",
        "Geben Sie das aktuelle Passwort ein: ",
        "[sudo] senha para ana: ", "[sudo] palavra-passe para ana: ", "Palavra-passe: ", "Palavra-passe atual: ",
        "Senha: ", "senha do ana: ",
        "Enter passphrase for key '/root/.ssh/id_ed25519': ",
        "Introduzca la frase de paso de la clave: ", "Saisissez la phrase secrète : ",
        // A passcode is a secret, though its words hold "code".
        "Código de acceso: ", "Code d'accès : ", "Zugangscode: ", "Código de acesso: ",
    ])
    func translatedPasswordPromptsAreSecrets(text: String) {
        #expect(kind(text) == .secret, "\(text)")
    }

    @Test(arguments: [
        "Código de verificación: ", "Introduzca el código de un solo uso: ", "Code de vérification : ",
        "Mot de passe à usage unique : ", "Bestätigungscode: ", "Einmalpasswort: ", "Verifizierungscode:",
        "Código de verificação: ", "Palavra-passe de utilização única: ",
    ])
    func translatedCodePromptsAreCodes(text: String) {
        #expect(kind(text) == .code, "\(text)")
    }

    @Test(arguments: [
        "nombre de usuario:", "Usuario: ", "Nom d'utilisateur : ", "login :", "Benutzername: ", "Login:",
        "Nome de utilizador: ", "credencial:", "Usuário: ",
    ])
    func translatedUserNamePromptsAreShownText(text: String) {
        #expect(kind(text) == .text, "\(text)")
    }

    /// Every catalog gives keywords of its own, so a language added later is read in callers' prompts too.
    @Test(arguments: Language.allCases)
    func everyCatalogNamesItsSecretsAndItsCodes(language: Language) {
        for name in ["askpass.secrets", "askpass.codes", "askpass.userNames"] {
            #expect(!language.catalog.list(name).isEmpty, "\(language): \(name)")
        }
        // A prompt is matched word by word, its punctuation dropped: a keyword with an apostrophe or a
        // hyphen ("nom d'utilisateur") would never match.
        for name in [
            "askpass.oneTime", "askpass.secrets", "askpass.codes", "askpass.longLivedTokens", "askpass.userNames",
        ] {
            for phrase in language.catalog.list(name) {
                #expect(
                    phrase.allSatisfy { $0.isLetter || $0.isNumber || $0 == " " }, "\(language): \(name): \(phrase)")
            }
        }
        for secret in language.catalog.list("askpass.secrets") {
            #expect(kind(secret + ": ") == .secret, "\(language): \(secret)")
        }
    }
}
