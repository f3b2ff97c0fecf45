import Testing

@testable import OTCPromptCore

/// Pastes through the real `PasteScanner` API. Tests marked "SMS extraction" depend on the
/// scanner finding one standalone run of `length` allowed characters in a message;
/// the others hold for any scanner that normalises and appends.
@Suite struct PromptSessionPasteTests {
    @Test(arguments: [
        "123456", "12 34 56", "123-456", "12\t34\n56", "\u{FF11}\u{FF12}\u{FF13}\u{FF14}\u{FF15}\u{FF16}",
    ])
    func aPastedCodeCompletesWithOneAnnouncement(pasted: String) {
        var driver = SessionDriver()
        driver.paste(pasted)
        #expect(driver.speech.spoken == [Announcement(.complete, "pasted: \(spelled: "1 2 3, 4 5 6"), code complete")])
        #expect(driver.actions == [.submit("123456")])
    }

    @Test func aPasteArrivingInPiecesIsAnnouncedOnceAtTheEnd() {
        var driver = SessionDriver(autoSubmit: false)
        driver.press(.pasteBegan, .pasteText("98"), .pasteText("5 3"))
        #expect(driver.speech.spoken.isEmpty)
        driver.press(.pasteText("91"))
        #expect(driver.speech.spoken.isEmpty)
        driver.press(.pasteEnded)
        #expect(
            driver.speech.spoken == [Announcement(.paste, "pasted: \(spelled: "9 8 5, 3 9 1"). 6 of 6, press Enter")])
        #expect(driver.session.field.value == "985391")
    }

    @Test(arguments: Language.allCases, Verbosity.allCases)
    func aPartialPasteIsAppendedAndGroupedWhereItLands(language: Language, verbosity: Verbosity) {
        var driver = SessionDriver(language: language, verbosity: verbosity)
        driver.type("98")
        driver.paste("53")
        let pasted = language.said("pasted")
        #expect(
            driver.last == Announcement(.paste, "\(pasted): \(spelled: "5, 3"). \(language.said("position", 4, 6))"))
        #expect(driver.session.field.value == "9853")
        driver.paste("91")
        let complete = language.said("complete")
        #expect(driver.last == Announcement(.complete, "\(pasted): \(spelled: "9 1"), \(complete)"))
        #expect(driver.submitted == "985391")
    }

    @Test(arguments: [Language.en, .ptBR])
    func aPasteLongerThanTheCodeIsNeverSubmittedUnheard(language: Language) {
        var driver = SessionDriver(language: language)
        driver.paste("1234567")
        #expect(driver.submitted == nil)
        #expect(driver.session.field.value == "123456")
        let expected: Utterance =
            "\(language.said("pasted")): \(spelled: "1 2 3, 4 5 6"). \(language.said("position", 6, 6)), "
            + "\(language.said("restDidNotFit")), \(language.said("pressEnter"))"
        #expect(driver.last == Announcement(.paste, expected))
        driver.press(.submit)
        #expect(driver.submitted == "123456")
    }

    @Test func aPasteLongerThanTheCodeIsSaidToBeCutEvenWhenTerse() {
        var driver = SessionDriver(verbosity: .terse)
        driver.type("12")
        driver.paste("3456789")
        #expect(driver.submitted == nil)
        #expect(driver.last?.text.hasSuffix("the rest did not fit, press Enter") == true)
    }

    @Test func aPasteThatDoesNotFitIsCutAtTheLength() {
        var driver = SessionDriver(autoSubmit: false)
        driver.type("985")
        driver.paste("3912")
        #expect(
            driver.last
                == Announcement(.paste, "pasted: \(spelled: "3 9 1"). 6 of 6, the rest did not fit, press Enter"))
        #expect(driver.session.field.value == "985391")
    }

    /// A whole code pasted over a half-typed one replaces it: never a mix of the two.
    @Test func aWholeCodePastedOverTypedCharactersReplacesThem() {
        var driver = SessionDriver()
        driver.type("77")
        driver.paste("985391")
        #expect(driver.last == Announcement(.complete, "pasted: \(spelled: "9 8 5, 3 9 1"), code complete"))
        #expect(driver.submitted == "985391")
    }

    @Test func pastingIntoAFullFieldSaysItIsFull() {
        var driver = SessionDriver(autoSubmit: false)
        driver.type("985391")
        driver.paste("12")
        #expect(driver.last == Announcement(.full, "code full, press Enter"))
        #expect(driver.session.field.value == "985391")
    }

    @Test func alnumPasteIsUpperCased() {
        var driver = SessionDriver(charset: .alnum)
        driver.paste("k1a-2p3")
        #expect(driver.last == Announcement(.complete, "pasted: \(spelled: "K 1 A, 2 P 3"), code complete"))
        #expect(driver.submitted == "K1A2P3")
    }

    @Test func aPasteOfOnlySeparatorsChangesNothing() {
        var driver = SessionDriver()
        driver.type("9")
        driver.paste(" - ")
        #expect(driver.last?.event == .reject)
        #expect(driver.session.field.value == "9")
        #expect(driver.snapshot.isError)
    }

    @Test func textOutsideAPasteIsStillScannedAndAnEndWithoutABeginningIsIgnored() {
        var driver = SessionDriver(autoSubmit: false)
        driver.press(.pasteEnded)
        #expect(driver.lastEffects.isEmpty)
        driver.press(.pasteText("98"), .pasteEnded)
        #expect(driver.last == Announcement(.paste, "pasted: \(spelled: "9 8"). 2 of 6"))
    }

    // MARK: SMS extraction (needs the real PasteScanner: the stub keeps every allowed character)

    @Test(arguments: Language.allCases)
    func smsExtractionFindsTheCodeInAMessage(language: Language) {
        var driver = SessionDriver(language: language)
        driver.paste("Your code is 123456.")
        let expected: Utterance =
            "\(language.said("foundInPaste")): \(spelled: "1 2 3, 4 5 6"), \(language.said("complete"))"
        #expect(driver.speech.spoken == [Announcement(.complete, expected)])
        #expect(driver.submitted == "123456")
    }

    @Test func smsExtractionReplacesWhatWasTyped() {
        var driver = SessionDriver(autoSubmit: false)
        driver.type("77")
        driver.paste("Your code is G-985391. Do not share it.")
        #expect(
            driver.last
                == Announcement(.paste, "code found in pasted text: \(spelled: "9 8 5, 3 9 1"). 6 of 6, press Enter"))
        #expect(driver.session.field.value == "985391")
    }

    @Test(arguments: Language.allCases)
    func smsExtractionRejectsAMessageWithoutOneCode(language: Language) {
        for message in ["hello world", "codes 123456 and 654321", "call 12345"] {
            var driver = SessionDriver(language: language)
            driver.type("9")
            driver.paste(message)
            let expected =
                language.said("pasteRejected", language.catalog.plural("kind.digits", count: 6, 6))
            #expect(driver.last == Announcement(.reject, expected), "\(message)")
            #expect(driver.session.field.value == "9")
            #expect(driver.snapshot.isError)
            #expect(driver.actions.isEmpty)
        }
    }

    @Test func smsExtractionInMaskModeDoesNotSayTheCode() {
        var driver = SessionDriver(mask: true)
        driver.paste("Your code is 985391.")
        #expect(driver.speech.spoken == [Announcement(.complete, "code found in pasted text, code complete")])
        #expect(driver.submitted == "985391")
    }
}
