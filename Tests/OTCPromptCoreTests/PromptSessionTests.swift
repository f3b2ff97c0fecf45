import OTCPromptTestSupport
import Testing

@testable import OTCPromptCore

@Suite struct PromptSessionTests {
    @Test(arguments: Language.withGoldenTexts, Verbosity.allCases)
    func startAnnouncesTheFieldInVoiceOversOrder(language: Language, verbosity: Verbosity) {
        var driver = SessionDriver(language: language, verbosity: verbosity)
        driver.start()
        let expected: String =
            switch (language, verbosity) {
            case (.en, .terse): "Verification code. Type 6 digits."
            case (.en, _):
                "Verification code. Type 6 digits. Control R reads them back, question mark for help."
            case (.ptBR, .terse): "Código de verificação. Tecle 6 dígitos."
            case (.ptBR, _):
                "Código de verificação. Tecle 6 dígitos. Control R lê o código, ponto de interrogação para ajuda."
            default: "no golden text for \(language.tag)"
            }
        #expect(driver.speech.spoken.map(\.text) == [expected])
        // What is asked and how to answer come first; the keys follow, for a key to cut short.
        let lead = language == .en ? "Verification code. Type 6 digits." : "Código de verificação. Tecle 6 dígitos."
        #expect(driver.speech.spoken.first?.lead?.text == lead)
        #expect(driver.actions.isEmpty)
    }

    @Test func startNamesTheKindOfFieldAndUsesTheGivenLabel() {
        var alnum = SessionDriver(PromptConfiguration(label: "GitHub", length: 8, charset: .alnum, verbosity: .terse))
        alnum.start()
        #expect(alnum.last?.text == "GitHub. Type 8 letters or digits.")
        var noAutoSubmit = SessionDriver(autoSubmit: false)
        noAutoSubmit.start()
        #expect(noAutoSubmit.last?.lead?.text == "Verification code. Type 6 digits, then press Enter.")
    }

    /// After a stop and resume the program calls `start()` again: the value is part of it.
    @Test func startAgainReadsTheValueTyped() {
        var driver = SessionDriver(verbosity: .terse)
        driver.type("9853")
        driver.start()
        #expect(driver.last?.utterance == "Verification code, \(spelled: "9 8 5, 3"). Type 6 digits.")
    }

    @Test(arguments: Language.allCases, Verbosity.allCases)
    func eachAcceptedDigitIsSpokenAlone(language: Language, verbosity: Verbosity) {
        var driver = SessionDriver(language: language, verbosity: verbosity)
        driver.type("985")
        let expected =
            verbosity == .verbose
            ? (1...3).map { "\(Array("985")[$0 - 1]), \(language.said("position", $0, 6))" } : ["9", "8", "5"]
        #expect(driver.speech.texts == expected)
        #expect(driver.speech.events == [.digit, .digit, .digit])
        #expect(driver.session.field.value == "985")
        #expect(
            driver.snapshot
                == FieldSnapshot(
                    label: driver.session.configuration.label, characters: ["9", "8", "5"], length: 6, mask: false,
                    isError: false))
    }

    @Test(arguments: Language.allCases, Verbosity.allCases)
    func autoSubmitCompletesWithOneAnnouncement(language: Language, verbosity: Verbosity) {
        var driver = SessionDriver(language: language, verbosity: verbosity)
        driver.type("98539")
        driver.press(.character("1"))
        let complete = language.said("complete")
        let expected: Utterance =
            verbosity == .verbose
            ? "\(spelled: "1"), \(complete): \(spelled: "9 8 5, 3 9 1")" : "\(spelled: "1"), \(complete)"
        #expect(driver.lastEffects == [.announce(Announcement(.complete, expected)), .submit("985391")])
        #expect(driver.session.isFinished)
        driver.press(.character("2"), .backspace, .submit, .interrupt)
        #expect(driver.lastEffects.isEmpty)
        #expect(driver.actions == [.submit("985391")])
    }

    @Test(arguments: Language.withGoldenTexts, Verbosity.allCases)
    func withoutAutoSubmitTheFullFieldWaitsForEnter(language: Language, verbosity: Verbosity) {
        var driver = SessionDriver(autoSubmit: false, language: language, verbosity: verbosity)
        driver.type("985391")
        #expect(driver.submitted == nil)
        let expected: String =
            switch (language, verbosity) {
            case (.en, .terse): ", code full"
            case (.en, .normal): ", code full, press Enter"
            case (.en, .verbose): ", 6 of 6, code full, press Enter"
            case (.ptBR, .terse): ", código preenchido"
            case (.ptBR, .normal): ", código preenchido, pressione Enter"
            case (.ptBR, .verbose): ", 6 de 6, código preenchido, pressione Enter"
            default: "no golden text for \(language.tag)"
            }
        #expect(driver.last == Announcement(.digit, "\(spelled: "1")\(expected)"))
        driver.press(.character("7"))
        let full: String =
            switch (language, verbosity) {
            case (.en, .terse): "code full"
            case (.en, _): "code full, press Enter"
            case (.ptBR, .terse): "código já preenchido"
            case (.ptBR, _): "código já preenchido, pressione Enter"
            default: "no golden text for \(language.tag)"
            }
        #expect(driver.last == Announcement(.full, full))
        #expect(driver.session.field.value == "985391")
        driver.press(.submit)
        let complete = language.said("complete")
        #expect(
            driver.last
                == Announcement(
                    .complete, verbosity == .verbose ? "\(complete): \(spelled: "9 8 5, 3 9 1")" : Utterance(complete)))
        #expect(driver.actions == [.submit("985391")])
    }

    @Test(arguments: Language.allCases)
    func aCharacterNotAllowedIsRejectedAndShownUntilTheNextKey(language: Language) {
        var driver = SessionDriver(language: language)
        driver.type("98")
        driver.press(.character("x"))
        let expected: Utterance =
            "\(language.catalog.utterance("notAllowed.letter", .characters([["X"]]))), \(language.said("only.digits"))"
        #expect(driver.lastEffects == [.announce(Announcement(.reject, expected))])
        #expect(driver.session.field.value == "98")
        #expect(driver.snapshot.isError)
        driver.press(.ignored)
        #expect(driver.lastEffects == [.announce(Announcement(.reject, language.said("keyNotTyped")))])
        #expect(driver.snapshot.isError, "a key that changes nothing leaves the error shown")
        driver.press(.character("5"))
        #expect(!driver.snapshot.isError)
        #expect(driver.session.field.value == "985")
    }

    @Test(arguments: Language.allCases, Verbosity.allCases)
    func questionMarkSpeaksTheKeys(language: Language, verbosity: Verbosity) {
        var driver = SessionDriver(language: language, verbosity: verbosity)
        driver.type("9")
        driver.press(.character("?"))
        #expect(driver.last?.event == .help)
        #expect(driver.session.field.value == "9")
        #expect(!driver.snapshot.isError)
        let text = driver.last?.text ?? ""
        #expect(text.contains(language.said("keys.reads")))
        let typeHint = language.said("typeHint.digits")
        #expect(text.hasPrefix(typeHint) == (verbosity != .terse))
        #expect(text.contains(language.said("redrawKey")) == (verbosity == .verbose))
    }

    @Test func questionMarkIsTypedWhereTheCharsetAllowsIt() {
        var driver = SessionDriver(PromptConfiguration(length: 8, charset: .any, kind: .freeText))
        driver.press(.character("?"))
        #expect(driver.last?.event == .digit)
        #expect(driver.session.field.value == "?")
    }

    @Test(arguments: Language.allCases, Verbosity.allCases)
    func backspaceDeletesTheLastCharacter(language: Language, verbosity: Verbosity) {
        var driver = SessionDriver(language: language, verbosity: verbosity)
        driver.type("985")
        driver.press(.backspace)
        let deleted: Utterance = "\(language.said("deleted")) \(spelled: "5")"
        let position = language.said("position", 2, 6)
        #expect(driver.last == Announcement(.delete, verbosity == .verbose ? deleted + ", \(position)" : deleted))
        #expect(driver.session.field.value == "98")
        #expect(!driver.snapshot.isError)
    }

    /// Backspace on an empty field changes nothing: a `reject` saying the field is empty.
    @Test(arguments: Language.allCases)
    func backspaceOnAnEmptyFieldSaysItIsEmpty(language: Language) {
        var driver = SessionDriver(language: language)
        driver.press(.backspace)
        #expect(driver.last == Announcement(.reject, language.said("empty")))
        #expect(driver.session.field.isEmpty)
    }

    @Test(arguments: Language.allCases, Verbosity.allCases)
    func controlUClears(language: Language, verbosity: Verbosity) {
        var driver = SessionDriver(language: language, verbosity: verbosity)
        driver.type("9853")
        driver.press(.clearField)
        let cleared = language.said("cleared")
        let position = language.said("position", 0, 6)
        #expect(driver.last == Announcement(.clear, verbosity == .verbose ? cleared + ", \(position)" : cleared))
        #expect(driver.session.field.isEmpty)
    }

    @Test(arguments: Language.allCases, Verbosity.allCases)
    func controlRReadsTheWholeCodeBack(language: Language, verbosity: Verbosity) {
        var driver = SessionDriver(autoSubmit: false, language: language, verbosity: verbosity)
        driver.press(.readBack)
        #expect(driver.last == Announcement(.readback, "\(language.said("empty")), \(language.said("position", 0, 6))"))
        driver.type("9853")
        driver.press(.readBack)
        #expect(driver.last == Announcement(.readback, "\(spelled: "9 8 5, 3"). \(language.said("position", 4, 6))"))
        driver.type("91")
        driver.press(.readBack)
        #expect(
            driver.last
                == Announcement(.readback, "\(spelled: "9 8 5, 3 9 1"). \(language.said("allEntered", count: 6))"))
        #expect(driver.session.field.value == "985391")
    }

    @Test(arguments: Language.withGoldenTexts)
    func enterBeforeTheCodeIsCompleteSaysWhatIsMissing(language: Language) {
        var driver = SessionDriver(language: language)
        driver.press(.submit)
        #expect(
            driver.last == Announcement(.incomplete, "\(language.said("empty")), \(language.said("missing", count: 6))")
        )
        driver.type("9853")
        driver.press(.submit)
        let four = language.catalog.plural("entered", count: 4, 4, 6) + ", " + language.said("missing", count: 2)
        #expect(driver.last == Announcement(.incomplete, four))
        driver.type("9")
        driver.press(.submit)
        let five = language.catalog.plural("entered", count: 5, 5, 6) + ", " + language.said("missing", count: 1)
        #expect(driver.last == Announcement(.incomplete, five))
        #expect(driver.actions.isEmpty)
    }

    @Test(arguments: [Key.interrupt, .escape], Language.allCases)
    func controlCAndEscapeCancel(key: Key, language: Language) {
        var driver = SessionDriver(language: language)
        driver.type("98")
        driver.press(key)
        let cancelled = Announcement(.cancel, language.said("cancelled"))
        #expect(driver.lastEffects == [.announce(cancelled), .cancel])
        #expect(cancelled.isFinal)
        #expect(driver.session.isFinished)
        driver.press(.character("5"))
        #expect(driver.lastEffects.isEmpty)
    }

    @Test func controlDCancelsOnlyAnEmptyField() {
        var driver = SessionDriver()
        driver.type("9")
        driver.press(.endOfInput)
        #expect(driver.lastEffects.isEmpty)
        #expect(driver.session.field.value == "9")
        driver.press(.backspace, .endOfInput)
        #expect(driver.lastEffects == [.announce(Announcement(.cancel, "cancelled")), .cancel])
    }

    @Test func redrawTimeLeftAndIgnoredKeys() {
        var driver = SessionDriver()
        driver.type("98")
        driver.press(.redraw)
        #expect(driver.lastEffects == [.redraw])
        driver.press(.timeLeft)
        #expect(driver.lastEffects == [.announce(Announcement(.timeLeft, "no time limit"))])
        // A key that types nothing is said, never dropped unsaid.
        driver.press(.ignored)
        #expect(driver.lastEffects == [.announce(Announcement(.reject, "Key not typed."))])
        #expect(driver.session.field.value == "98")
        #expect(driver.speech.events == [.digit, .digit, .timeLeft, .reject])
    }

    @Test func alnumLettersAreStoredAndSpokenUpperCase() {
        var driver = SessionDriver(charset: .alnum, autoSubmit: false)
        driver.type("g1a2b")
        // G and B could be taken for 6 and 8: said as letters.
        #expect(driver.speech.texts == ["letter G", "1", "A", "2", "letter B"])
        driver.press(.character("-"))
        #expect(driver.last == Announcement(.reject, "dash not allowed, letters and digits only"))
        driver.type("3")
        driver.press(.readBack)
        #expect(driver.last?.text == "letter G 1 A, 2 letter B 3. All 6.")
        driver.press(.submit)
        #expect(driver.submitted == "G1A2B3")
    }

    @Test func freeTextSubmitsWhateverIsThereButNotNothing() {
        var driver = SessionDriver(
            PromptConfiguration(label: "Password", length: 64, charset: .any, mask: true, kind: .freeText))
        driver.start()
        #expect(driver.last?.text == "Password. Type it, then Enter. Secret text, Control R counts them.")
        driver.press(.submit)
        #expect(driver.last == Announcement(.incomplete, "empty"))
        driver.type("pa ss")
        #expect(driver.last == Announcement(.digit, "bullet, 5 entered"))
        driver.press(.readBack)
        #expect(driver.last == Announcement(.readback, "5 entered"))
        driver.press(.submit)
        #expect(driver.submitted == "pa ss")
    }

    /// Whatever the keys, a key never yields more than one announcement (a second would cut off
    /// the first), and submit or cancel comes last.
    @Test(arguments: Language.allCases)
    func everyKeyMakesAtMostOneAnnouncement(language: Language) {
        var random = SeededRandom(seed: 7)
        let keys: [Key] = [
            .character("1"), .character("7"), .character("x"), .character("?"), .backspace, .clearField,
            .readBack, .submit, .redraw, .timeLeft, .ignored, .endOfInput, .pasteBegan, .pasteText("12"),
            .pasteText("34 56"), .pasteEnded,
        ]
        for round in 0..<200 {
            var driver = SessionDriver(autoSubmit: round % 2 == 0, language: language)
            for _ in 0..<30 {
                driver.press(keys[Int(random.next() % UInt64(keys.count))])
                #expect(driver.lastAnnouncements.count <= 1)
                if let action = driver.lastEffects.last, action == .cancel || action.isSubmit {
                    #expect(driver.session.isFinished)
                }
            }
        }
    }

    @Test func wipeEmptiesTheField() {
        var driver = SessionDriver()
        driver.type("9853")
        driver.session.wipe()
        #expect(driver.session.field.isEmpty)
        #expect(driver.snapshot.characters.isEmpty)
    }
}
