import Testing

@testable import OTCPromptCore

/// Askpass confirmation (`SSH_ASKPASS_PROMPT=confirm`): a spoken yes/no question.
@Suite struct ConfirmSessionTests {
    static func yes(_ language: Language) -> Announcement { Announcement(.confirm, language == .en ? "yes" : "sim") }
    static func no(_ language: Language) -> Announcement { Announcement(.confirm, language == .en ? "no" : "não") }

    @Test(arguments: Language.allCases, Verbosity.allCases)
    func theQuestionIsAskedWithTheKeys(language: Language, verbosity: Verbosity) {
        let session = ConfirmSession(
            question: "Allow use of key id_ed25519?", details: ["Key fingerprint SHA256:abc"], language: language,
            verbosity: verbosity)
        let expected: String =
            switch (language, verbosity) {
            case (.en, .terse): "Key fingerprint SHA256:abc. Allow use of key id_ed25519? yes or no."
            case (.en, _):
                "Key fingerprint SHA256:abc. Allow use of key id_ed25519? yes or no. Press y or Enter for yes, n or Escape for no."
            case (.pt, .terse): "Key fingerprint SHA256:abc. Allow use of key id_ed25519? sim ou não."
            case (.pt, _):
                "Key fingerprint SHA256:abc. Allow use of key id_ed25519? sim ou não. Pressione s ou Enter para sim, n ou Esc para não."
            }
        #expect(session.start() == [.announce(Announcement(.prompt, expected))])
    }

    @Test func aQuestionWithoutAQuestionMarkGetsOne() {
        let session = ConfirmSession(question: "Continue connecting", enterAnswersYes: false, verbosity: .normal)
        #expect(
            session.start().first
                == .announce(Announcement(.prompt, "Continue connecting? yes or no. Press y for yes, n for no.")))
    }

    @Test(arguments: Language.allCases, ["y", "Y", "\r"])
    func yesKeys(language: Language, key: String) {
        var session = ConfirmSession(question: "Allow?", language: language)
        let effects = session.handle(key == "\r" ? .submit : .character(Character(key)))
        #expect(effects == [.announce(Self.yes(language)), .confirmed(true)])
        #expect(Self.yes(language).isFinal)
        #expect(session.answer == true)
        #expect(session.snapshot.characters == [language == .en ? "y" : "s"])
        #expect(session.handle(.character("n")).isEmpty, "answered once")
    }

    @Test(arguments: ["s", "S"])
    func simAnswersYesInPortugueseOnly(key: String) {
        var portuguese = ConfirmSession(question: "Permitir?", language: .pt)
        #expect(portuguese.handle(.character(Character(key))) == [.announce(Self.yes(.pt)), .confirmed(true)])
        var english = ConfirmSession(question: "Allow?", language: .en)
        #expect(english.handle(.character(Character(key))).first?.announcement?.event == .help)
        #expect(english.answer == nil)
    }

    @Test(arguments: Language.allCases, [Key.character("n"), .character("N"), .escape, .interrupt, .endOfInput])
    func noKeys(language: Language, key: Key) {
        var session = ConfirmSession(question: "Allow?", language: language)
        #expect(session.handle(key) == [.announce(Self.no(language)), .confirmed(false)])
        #expect(session.answer == false)
        #expect(session.isFinished)
    }

    @Test(arguments: Language.allCases)
    func otherKeysSayWhichKeysAnswer(language: Language) {
        var session = ConfirmSession(question: "Allow?", enterAnswersYes: false, language: language)
        let help = Announcement(
            .help, language == .en ? "Press y for yes, n for no." : "Pressione s para sim, n para não.")
        for key in [Key.character("x"), .character("?"), .character("1"), .submit, .backspace, .clearField] {
            #expect(session.handle(key) == [.announce(help)], "\(key)")
        }
        #expect(session.handle(.readBack) == session.start(), "Ctrl-R asks the question again")
        #expect(session.handle(.redraw) == [.redraw])
        #expect(session.handle(.ignored).isEmpty)
        #expect(session.handle(.pasteBegan).isEmpty)
        #expect(session.handle(.pasteText("yes")).isEmpty)
        #expect(session.handle(.pasteEnded) == [.announce(help)], "a paste never answers")
        #expect(session.answer == nil)
        #expect(!session.isFinished)
    }

    @Test func timeLimit() {
        var session = ConfirmSession(question: "Allow?", timeLimit: .seconds(15))
        #expect(session.nextDeadline(after: .zero) == .seconds(5))
        #expect(session.tick(at: .seconds(5)) == [.announce(Announcement(.timeLeft, "10 seconds left"))])
        #expect(session.handle(.timeLeft) == [.announce(Announcement(.timeLeft, "10 seconds left"))])
        #expect(session.tick(at: .seconds(15)) == [.announce(Announcement(.timeout, "time is up")), .timeout])
        #expect(session.handle(.character("y")).isEmpty)
        #expect(session.answer == nil)
        var unlimited = ConfirmSession(question: "Allow?")
        #expect(unlimited.handle(.timeLeft) == [.announce(Announcement(.timeLeft, "no time limit"))])
    }

    @Test func theScreenShowsTheQuestionAndTheLetters() {
        let session = ConfirmSession(question: "Permitir?", language: .pt)
        #expect(session.snapshot.label == "Permitir? (s/n)")
        #expect(session.snapshot.characters.isEmpty)
    }
}

extension PromptEffect {
    var announcement: Announcement? {
        if case .announce(let announcement) = self { announcement } else { nil }
    }
}
