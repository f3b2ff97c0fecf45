import Testing

@testable import OTCPromptCore

/// Askpass questions: nothing is answered by accident.
@Suite struct ConfirmSessionTests {
    static func yes(_ language: Language) -> Announcement { Announcement(.confirm, language.said("yes")) }
    static func no(_ language: Language) -> Announcement { Announcement(.confirm, language.said("no")) }

    /// Types `text` then Enter; returns the effects of Enter.
    private func answer(_ session: inout ConfirmSession, _ text: String) -> [PromptEffect] {
        for character in text { _ = session.handle(.character(character)) }
        return session.handle(.submit)
    }

    @Test(arguments: Language.withGoldenTexts, Verbosity.allCases)
    func theQuestionIsAskedWithHowToAnswer(language: Language, verbosity: Verbosity) {
        let session = ConfirmSession(
            question: "Allow use of key id_ed25519?", details: ["Key fingerprint SHA256:abc"], language: language,
            verbosity: verbosity)
        let expected: String =
            switch (language, verbosity) {
            case (.en, .terse): "Allow use of key id_ed25519? Yes or no. Key fingerprint SHA256:abc."
            case (.en, _):
                "Allow use of key id_ed25519? Yes or no. Key fingerprint SHA256:abc. Type the whole word yes or no, then press Enter."
            case (.ptBR, .terse): "Allow use of key id_ed25519? Sim ou não. Key fingerprint SHA256:abc."
            case (.ptBR, _):
                "Allow use of key id_ed25519? Sim ou não. Key fingerprint SHA256:abc. Digite a palavra inteira, sim ou não, e pressione Enter."
            default: "no golden text for \(language.tag)"
            }
        // Said and logged as one flow; the details are a line of their own in text mode (`OpeningLinesTests`).
        let opening = session.start().first?.announcement
        #expect(opening.map(\.text) == expected)
        // The question and how to answer it first, in one sentence; the fingerprint follows, for a key to cut short.
        #expect(opening?.lead?.text == String(expected.prefix(while: { $0 != "." })) + ".")
    }

    /// Each language's whole words, from its catalog, in any case.
    static func answers(_ list: String) -> [(Language, String)] {
        Language.allCases.flatMap { language in
            language.catalog.list(list).flatMap { [(language, $0), (language, $0.uppercased())] }
        }
    }
    static let yesAnswers = answers("answer.yesWords")
    static let noAnswers = answers("answer.noWords")

    /// What a question in one language does not take: the other languages' words (unless its own
    /// list has them too: "no" is English and Spanish) and the first letter of any word.
    static let notAnswers: [(Language, String)] = Language.allCases.flatMap { language in
        let own = Set(language.catalog.list("answer.yesWords") + language.catalog.list("answer.noWords"))
        let all = Language.allCases.flatMap { $0.catalog.list("answer.yesWords") + $0.catalog.list("answer.noWords") }
        let others = Set(all).subtracting(own)
        let letters = Set(all.compactMap(\.first).map(String.init))
        return (others.union(letters)).sorted().map { (language, $0) }
    }

    @Test(arguments: notAnswers)
    func anotherLanguagesWordOrALetterIsNoAnswer(language: Language, word: String) {
        var session = ConfirmSession(question: "Allow?", language: language)
        #expect(answer(&session, word).first?.announcement?.event == .help, "\(language): \(word)")
        #expect(session.answer == nil)
    }

    @Test(arguments: yesAnswers)
    func yesWords(language: Language, word: String) {
        var session = ConfirmSession(question: "Allow?", language: language)
        #expect(answer(&session, word) == [.announce(Self.yes(language)), .confirmed(true)])
        #expect(Self.yes(language).isFinal)
        #expect(session.answer == .yes)
        #expect(session.snapshot.characters == Array(word), "the answer stays on the screen")
        #expect(session.handle(.character("n")).isEmpty, "answered once")
    }

    @Test(arguments: noAnswers)
    func noWords(language: Language, word: String) {
        var session = ConfirmSession(question: "Allow?", language: language)
        #expect(answer(&session, word) == [.announce(Self.no(language)), .confirmed(false)])
        #expect(session.answer == .no)
    }

    /// "s⏎", the rest of a "yes⏎" whose first keys fell in the grace, was Portuguese "sim" even in
    /// an English prompt: single letters and the other language's words answer nothing.
    @Test(arguments: [
        (Language.en, "y"), (.en, "Y"), (.en, "n"), (.en, "s"), (.en, "sim"), (.en, "não"), (.en, "nao"), (.en, "ye"),
        (.ptBR, "s"), (.ptBR, "S"), (.ptBR, "n"), (.ptBR, "y"), (.ptBR, "yes"), (.ptBR, "no"), (.ptBR, "si"),
        (.ptBR, "im"),
    ])
    func lettersAndTheOtherLanguagesWordsAreNoAnswer(language: Language, word: String) {
        var session = ConfirmSession(question: "Allow?", language: language)
        #expect(answer(&session, word).first?.announcement?.event == .help)
        #expect(session.answer == nil)
        #expect(!session.isFinished)
    }

    /// Esc always cancels, as the choices announce it ("…; Stop, or Escape"): never "no", with labels or without.
    @Test(arguments: Language.allCases, [Key.escape, .interrupt, .endOfInput])
    func cancelKeysCancel(language: Language, key: Key) {
        var session = ConfirmSession(question: "Allow?", language: language)
        #expect(session.handle(key).last == .cancel)
        #expect(session.answer == .cancelled)
        var labelled = ConfirmSession(
            question: "Sign?", labels: ConfirmLabels(yes: "Sign", no: "Skip", cancel: "Stop"), language: language)
        #expect(labelled.handle(key).last == .cancel)
        #expect(labelled.isFinished)
    }

    /// The leftover of "yes⏎" typed at an earlier question: "y" alone no longer answers, and Enter never does.
    @Test func aLetterAloneOrEnterAloneNeverAnswers() {
        var session = ConfirmSession(question: "Allow?")
        #expect(session.handle(.character("y")) == [.announce(Announcement(.digit, "\(spelled: "y")"))])
        #expect(session.answer == nil)
        var empty = ConfirmSession(question: "Allow?")
        #expect(
            empty.handle(.submit)
                == [.announce(Announcement(.help, "Type the whole word yes or no, then press Enter."))])
        #expect(empty.answer == nil)
        #expect(!empty.isFinished)
    }

    @Test(arguments: ["es", "yess", "ok", "1", "y e s", "SHA256:abc"])
    func anyOtherWordAsksAgain(word: String) {
        var session = ConfirmSession(question: "Allow?")
        #expect(
            answer(&session, word)
                == [
                    .announce(Announcement(.help, "Not an answer. Type the whole word yes or no, then press Enter."))
                ])
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
        #expect(answer(&session, "yes") == [.announce(Self.yes(.en)), .confirmed(true)])
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

    /// A stray long line once said how to answer once per key past the limit (~40 in a row).
    @Test func aLinePastTheLimitIsToldHowToAnswerOnceUntilEnterOrADeletion() {
        var session = ConfirmSession(question: "Allow?")
        func helps(_ keys: Int) -> Int {
            (0..<keys).flatMap { _ in session.handle(.character("x")) }.filter { $0.announcement?.event == .help }.count
        }
        #expect(helps(ConfirmSession.answerLimit) == 0)
        #expect(helps(40) == 1, "said once for the whole stray line")
        _ = session.handle(.backspace)
        #expect(helps(5) == 1, "a deletion makes room: the next key past the limit is told again")
        _ = session.handle(.submit)
        #expect(helps(ConfirmSession.answerLimit + 40) == 1, "a new line is told once again")
        _ = session.handle(.clearField)
        #expect(helps(ConfirmSession.answerLimit + 3) == 1)
    }

    @Test func otherKeys() {
        var session = ConfirmSession(question: "Allow?")
        #expect(session.handle(.readBack) == session.start(), "Ctrl-R asks the question again")
        #expect(session.handle(.redraw) == [.redraw])
        #expect(session.handle(.ignored).isEmpty)
        #expect(session.handle(.terminalReport).isEmpty)
        #expect(session.answer == nil)
    }

    /// The details follow the question for a key to cut short; Ctrl-R, or `?` before anything is typed, says it all
    /// again, question first.
    @Test func controlROrAQuestionMarkSaysTheQuestionAndItsDetailsAgain() {
        var session = ConfirmSession(question: "Allow use of key joe@laptop?", details: ["Key fingerprint SHA256:abc"])
        let opening = session.start()
        #expect(opening.first?.announcement?.lead?.text == "Allow use of key joe@laptop? Yes or no.")
        #expect(session.handle(.readBack) == opening)
        #expect(session.handle(.character("?")) == opening)
        #expect(session.typed.isEmpty, "? asked; it was not typed")
        _ = session.handle(.character("y"))
        #expect(session.handle(.character("?")).first?.announcement?.event == .digit, "typed once an answer began")
        var notice = NoticeSession(message: "Touch your key", details: ["Key SHA256:abc"])
        #expect(notice.handle(.character("?")) == notice.start())
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

    /// gpg-agent's SETOK/SETNOTOK/SETCANCEL: said and shown as the choices; typed whole, each is its answer.
    @Test func theCallersLabelsAreTheChoicesAndAnswers() {
        let labels = ConfirmLabels(yes: "Take this one anyway", no: "Enter new passphrase", cancel: "Cancel")
        var session = ConfirmSession(question: "Passphrase is weak", labels: labels)
        // The labels are the choices in the first sentence; their words, and how to type them, follow.
        let opening = session.start().first?.announcement
        #expect(opening?.lead?.text == "Passphrase is weak? Take this one anyway, Enter new passphrase or Cancel.")
        #expect(
            opening?.text
                == "Passphrase is weak? Take this one anyway, Enter new passphrase or Cancel. Choices: Take this one "
                + "anyway, or yes; Enter new passphrase, or no; Cancel, or Escape. Type a choice or its word, then press Enter."
        )
        #expect(
            session.snapshot.label
                == "Passphrase is weak (Take this one anyway=yes / Enter new passphrase=no / Cancel=Escape)")
        #expect(answer(&session, "take this one anyway") == [.announce(Self.yes(.en)), .confirmed(true)])
        var notOK = ConfirmSession(question: "Passphrase is weak", labels: labels)
        #expect(answer(&notOK, "ENTER NEW PASSPHRASE") == [.announce(Self.no(.en)), .confirmed(false)])
        var cancel = ConfirmSession(question: "Passphrase is weak", labels: labels)
        #expect(answer(&cancel, "cancel") == [.announce(Announcement(.cancel, "cancelled")), .cancel])
        #expect(cancel.answer == .cancelled)
        var partial = ConfirmSession(question: "Passphrase is weak", labels: labels)
        #expect(answer(&partial, "Take this").first?.announcement?.event == .help, "a label counts only whole")
        var pasted = ConfirmSession(question: "Passphrase is weak", labels: labels)
        _ = pasted.handle(.pasteBegan)
        _ = pasted.handle(.pasteText("Take this one anyway"))
        _ = pasted.handle(.pasteEnded)
        #expect(pasted.handle(.submit).last == .confirmed(true), "a pasted label, its blanks dropped, answers")
        var words = ConfirmSession(question: "Passphrase is weak", labels: ConfirmLabels(yes: "Take this one anyway"))
        #expect(words.snapshot.label == "Passphrase is weak (Take this one anyway=yes / no)")
        // gpg-agent's weak-passphrase warning names OK and Cancel only: "no" answers but is not offered.
        let okAndCancel = ConfirmSession(
            question: "Weak", labels: ConfirmLabels(yes: "Take this one anyway", cancel: "Enter new passphrase"))
        #expect(okAndCancel.snapshot.label == "Weak (Take this one anyway=yes / Enter new passphrase=Escape)")
        #expect(answer(&words, "no") == [.announce(Self.no(.en)), .confirmed(false)])
    }

    @Test(arguments: Language.allCases)
    func aDroppedLeftoverLineIsSaid(language: Language) {
        let session = ConfirmSession(question: "Allow?", language: language)
        let said =
            language.said("leftoverIgnored")
        #expect(session.leftoverIgnored() == [.announce(Announcement(.help, said))])
    }

    @Test func theScreenShowsTheQuestionTheChoicesAndWhatIsTyped() {
        var session = ConfirmSession(question: "Permitir?", language: .ptBR)
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
            notice.start().map(\.announcement?.text) == [
                "Confirm user presence for key ED25519-SK SHA256:abc. Nothing to type. Escape closes this notice. User presence required."
            ])
        #expect(notice.handle(.character("y")).first?.announcement?.event == .help)
        #expect(notice.handle(.submit).first?.announcement?.event == .help)
        #expect(!notice.isFinished)
        #expect(notice.handle(.escape).last == .cancel)
        #expect(notice.isFinished)
    }

    @Test func detailsToldOnReadBackAreDrawnAboveAndSaidOnlyWhenAskedFor() {
        var notice = NoticeSession(
            message: "Touch your security key.", details: ["Confirm user presence for key ED25519-SK SHA256:abc"])
        notice.detailsTold = .onReadBack
        #expect(notice.start().map(\.announcement?.text) == ["Touch your security key. Nothing to type. Escape closes this notice."])
        #expect(notice.shownLines == ["Confirm user presence for key ED25519-SK SHA256:abc"])
        for key in [Key.readBack, .character("?")] {
            #expect(
                notice.handle(key).map(\.announcement?.text) == [
                    "Touch your security key. Nothing to type. Escape closes this notice. Confirm user presence for key ED25519-SK SHA256:abc."
                ])
        }
        #expect(!notice.isFinished)
    }

    /// pinentry's MESSAGE and one-button CONFIRM: taken with Enter, not a yes/no question; Esc cancels.
    @Test(arguments: Language.allCases)
    func aNoticeThatTakesEnterIsAcknowledgedWithIt(language: Language) {
        var notice = NoticeSession(message: "Please insert the card", takesEnter: true, language: language)
        let hint =
            language.said("noticeEnterHint")
        #expect(notice.start().map(\.announcement?.text) == ["Please insert the card. " + hint])
        #expect(notice.handle(.character("y")) == [.announce(Announcement(.help, hint))])
        #expect(notice.snapshot.label.hasSuffix("(\(language.said("pressEnter")))"))
        #expect(
            notice.handle(.submit) == [
                .announce(Announcement(.confirm, language.said("noticeTaken"))), .confirmed(true),
            ])
        #expect(notice.isFinished)
        var cancelled = NoticeSession(message: "Please insert the card", takesEnter: true, language: language)
        #expect(cancelled.handle(.escape).last == .cancel)
        var terse = NoticeSession(message: "Insert", takesEnter: true, language: language, verbosity: .terse)
        #expect(
            terse.start().first?.announcement?.text.contains(language.said("noticeEnterHint")) == true,
            "the only way on is always said")
        _ = terse.handle(.escape)
    }

    /// The password agent's wait woken by a key: drawn again, not said again; the key's answer is all that is heard,
    /// and Ctrl-R still says the whole notice.
    @Test func aNoticeThatOpensSilentlySaysOnlyWhatItsKeysAsk() {
        var notice = NoticeSession(message: "Waiting for password requests")
        notice.opensSilently = true
        #expect(notice.start().isEmpty)
        #expect(notice.snapshot.label == "Waiting for password requests")
        #expect(notice.handle(.readBack).first?.announcement?.text.hasPrefix("Waiting for password requests.") == true)
        #expect(notice.handle(.character("x")).first?.announcement?.event == .help)
        #expect(notice.start().first?.announcement?.text.hasPrefix("Waiting") == true, "said again after a stop")
        #expect(notice.handle(.escape).last == .cancel)
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
