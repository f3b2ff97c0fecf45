import Testing

@testable import OTCPromptCore

/// Askpass questions: nothing is answered by accident.
@Suite struct ConfirmSessionTests {
    static func yes(_ language: Language) -> Announcement { Announcement(.confirm, language == .en ? "yes" : "sim") }
    static func no(_ language: Language) -> Announcement { Announcement(.confirm, language == .en ? "no" : "não") }

    /// Types `text` then Enter; returns the effects of Enter.
    private func answer(_ session: inout ConfirmSession, _ text: String) -> [PromptEffect] {
        for character in text { _ = session.handle(.character(character)) }
        return session.handle(.submit)
    }

    @Test(arguments: Language.allCases, Verbosity.allCases)
    func theQuestionIsAskedWithHowToAnswer(language: Language, verbosity: Verbosity) {
        let session = ConfirmSession(
            question: "Allow use of key id_ed25519?", details: ["Key fingerprint SHA256:abc"], language: language,
            verbosity: verbosity)
        let expected: String =
            switch (language, verbosity) {
            case (.en, .terse): "Key fingerprint SHA256:abc. Allow use of key id_ed25519? yes or no."
            case (.en, _):
                "Key fingerprint SHA256:abc. Allow use of key id_ed25519? yes or no. Type yes or no, then press Enter."
            case (.pt, .terse): "Key fingerprint SHA256:abc. Allow use of key id_ed25519? sim ou não."
            case (.pt, _):
                "Key fingerprint SHA256:abc. Allow use of key id_ed25519? sim ou não. Digite sim ou não e pressione Enter."
            }
        #expect(session.start() == [.announce(Announcement(.prompt, expected))])
    }

    @Test(arguments: Language.allCases, ["y", "Y", "yes", "YES", "Yes", "s", "sim", "SIM"])
    func yesWords(language: Language, word: String) {
        var session = ConfirmSession(question: "Allow?", language: language)
        #expect(answer(&session, word) == [.announce(Self.yes(language)), .confirmed(true)])
        #expect(Self.yes(language).isFinal)
        #expect(session.answer == .yes)
        #expect(session.snapshot.characters == Array(word), "the answer stays on the screen")
        #expect(session.handle(.character("n")).isEmpty, "answered once")
    }

    @Test(arguments: Language.allCases, ["n", "N", "no", "No", "não", "nao"])
    func noWords(language: Language, word: String) {
        var session = ConfirmSession(question: "Allow?", language: language)
        #expect(answer(&session, word) == [.announce(Self.no(language)), .confirmed(false)])
        #expect(session.answer == .no)
    }

    @Test(arguments: Language.allCases, [Key.escape, .interrupt, .endOfInput])
    func cancelKeysSayNo(language: Language, key: Key) {
        var session = ConfirmSession(question: "Allow?", language: language)
        #expect(session.handle(key) == [.announce(Self.no(language)), .confirmed(false)])
        #expect(session.isFinished)
    }

    /// The leftover of "yes⏎" typed at an earlier question: "y" alone no longer answers, and Enter never does.
    @Test func aLetterAloneOrEnterAloneNeverAnswers() {
        var session = ConfirmSession(question: "Allow?")
        #expect(session.handle(.character("y")) == [.announce(Announcement(.digit, "\(spelled: "y")"))])
        #expect(session.answer == nil)
        var empty = ConfirmSession(question: "Allow?")
        #expect(
            empty.handle(.submit) == [.announce(Announcement(.help, "Type yes or no, then press Enter."))])
        #expect(empty.answer == nil)
        #expect(!empty.isFinished)
    }

    @Test(arguments: ["es", "yess", "ok", "1", "y e s", "SHA256:abc"])
    func anyOtherWordAsksAgain(word: String) {
        var session = ConfirmSession(question: "Allow?")
        #expect(
            answer(&session, word)
                == [.announce(Announcement(.help, "Not an answer. Type yes or no, then press Enter."))])
        #expect(session.answer == nil)
        #expect(session.typed.isEmpty, "the next try starts afresh")
        #expect(answer(&session, "yes") == [.announce(Self.yes(.en)), .confirmed(true)])
    }

    @Test func editingTheAnswer() {
        var session = ConfirmSession(question: "Allow?")
        _ = session.handle(.character("n"))
        #expect(session.handle(.backspace) == [.announce(Announcement(.delete, "deleted \(spelled: "n")"))])
        #expect(session.handle(.backspace).first?.announcement?.event == .help, "nothing to delete")
        _ = session.handle(.character("x"))
        #expect(session.handle(.clearField) == [.announce(Announcement(.clear, "cleared"))])
        #expect(answer(&session, "y") == [.announce(Self.yes(.en)), .confirmed(true)])
    }

    static let fingerprint = "SHA256:3uW0xQk7J2r0vC9cVJgk1m1v4c4qG7mH1Xb9Yz0aBcD"

    /// ssh's new-host question takes the fingerprint, which ssh compares with the host's key itself.
    @Test func aTypedOrPastedFingerprintIsPassedOnAsItIs() {
        var typed = ConfirmSession(question: "Continue connecting?", acceptsFingerprint: true)
        #expect(typed.snapshot.label == "Continue connecting? (yes/no/fingerprint)")
        #expect(
            answer(&typed, Self.fingerprint)
                == [
                    .announce(Announcement(.confirm, "fingerprint sent")),
                    .submit(SecretBytes(copying: Self.fingerprint)),
                ])
        var pasted = ConfirmSession(question: "Continue connecting?", acceptsFingerprint: true)
        #expect(pasted.handle(.pasteBegan).isEmpty)
        #expect(pasted.handle(.pasteText(" " + Self.fingerprint + "\n")).isEmpty)
        #expect(pasted.handle(.pasteEnded).first?.announcement?.event == .paste)
        #expect(pasted.answer == nil, "a paste waits for Enter")
        #expect(pasted.handle(.submit).last == .submit(SecretBytes(copying: Self.fingerprint)))
        var notAsked = ConfirmSession(question: "Allow?")
        #expect(answer(&notAsked, Self.fingerprint).first?.announcement?.event == .help)
    }

    @Test func theAnswerIsBounded() {
        var session = ConfirmSession(question: "Allow?")
        for _ in 0..<(ConfirmSession.answerLimit + 10) { _ = session.handle(.character("x")) }
        #expect(session.typed.count == ConfirmSession.answerLimit)
    }

    @Test func otherKeys() {
        var session = ConfirmSession(question: "Allow?")
        #expect(session.handle(.readBack) == session.start(), "Ctrl-R asks the question again")
        #expect(session.handle(.redraw) == [.redraw])
        #expect(session.handle(.ignored).isEmpty)
        #expect(session.answer == nil)
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

    @Test func theScreenShowsTheQuestionTheChoicesAndWhatIsTyped() {
        var session = ConfirmSession(question: "Permitir?", language: .pt)
        #expect(session.snapshot.label == "Permitir? (sim/não)")
        _ = session.handle(.character("s"))
        #expect(session.snapshot.characters == ["s"])
    }
}

/// ssh-agent's `SSH_ASKPASS_PROMPT=none` notice: said, then nothing to answer.
@Suite struct NoticeSessionTests {
    @Test func theNoticeIsSaidAndOnlyClosingKeysEndIt() {
        var notice = NoticeSession(
            message: "Confirm user presence for key ED25519-SK SHA256:abc", details: ["User presence required"])
        #expect(
            notice.start()
                == [
                    .announce(
                        Announcement(
                            .prompt,
                            "User presence required. Confirm user presence for key ED25519-SK SHA256:abc. Nothing to type. Escape closes this notice."
                        ))
                ])
        #expect(notice.handle(.character("y")).first?.announcement?.event == .help)
        #expect(notice.handle(.submit).first?.announcement?.event == .help)
        #expect(!notice.isFinished)
        #expect(notice.handle(.escape).last == .cancel)
        #expect(notice.isFinished)
    }

    /// A notice has no field: its line is the message as ssh wrote it, without a field's ": ".
    @Test func theNoticeIsDrawnAsItsMessageAlone() {
        let notice = NoticeSession(message: "Confirm user presence for key ED25519-SK SHA256:abc")
        var renderer = LineRenderer()
        #expect(renderer.redraw(notice.snapshot).hasSuffix("Confirm user presence for key ED25519-SK SHA256:abc"))
    }
}

extension PromptEffect {
    var announcement: Announcement? {
        if case .announce(let announcement) = self { announcement } else { nil }
    }
}
