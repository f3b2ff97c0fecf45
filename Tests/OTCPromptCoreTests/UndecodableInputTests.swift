import Testing

@testable import OTCPromptCore

/// A byte that is no character in the terminal's charset is never
/// dropped silently, least of all from a secret. The decoder reports it (`.undecodable`, carrying
/// nothing typed) and the session says so; free text then asks for a second Enter.
@Suite struct UndecodableInputTests {
    /// What a terminal can send that is not UTF-8, each followed by a digit that must survive.
    static let invalidShapes: [(String, [UInt8])] = [
        ("a lone continuation byte", [0x80]),
        ("a continuation byte after a character", [0xC3, 0xA9, 0xA9]),
        ("an overlong two-byte slash", [0xC0, 0xAF]),
        ("an overlong three-byte slash", [0xE0, 0x80, 0xAF]),
        ("an overlong four-byte slash", [0xF0, 0x80, 0x80, 0xAF]),
        ("a UTF-16 surrogate", [0xED, 0xA0, 0x80]),
        ("a code point past U+10FFFF", [0xF4, 0x90, 0x80, 0x80]),
        ("a lead byte that no character has", [0xF8, 0x88, 0x80, 0x80, 0x80]),
        ("a truncated sequence before a digit", [0xE2, 0x82]),
        ("Latin-1 é", [0xE9]),
        ("Latin-1 ç and ã", [0xE7, 0xE3]),
    ]

    @Test(arguments: invalidShapes)
    func everyInvalidShapeIsReportedAndTheNextKeySurvives(shape: String, garbage: [UInt8]) {
        let keys = decodeWhole(garbage + [0x37])
        #expect(keys.last == .character("7"), "\(shape)")
        #expect(keys.contains(.undecodable), "\(shape)")
        #expect(!keys.contains(.ignored), "\(shape)")
        // However the bytes are cut into reads.
        #expect(decodeInPieces((garbage + [0x37]).map { [$0] }) == keys, "\(shape)")
    }

    @Test func aSequenceTruncatedAtTheEndOfAReadWaitsThenIsReportedWhenFlushed() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x61, 0xF0, 0x9F, 0x98]) == [.character("a")])
        #expect(decoder.isAwaitingMoreBytes)
        #expect(decoder.flush() == [.undecodable])
        // Completed by the next read instead, it is the character.
        var completed = KeyDecoder()
        _ = completed.feed([0xF0, 0x9F, 0x98])
        #expect(completed.feed([0x80]) == [.character("😀")])
    }

    /// The C and POSIX locales say ASCII, read as UTF-8: an 8-bit byte there is not a character.
    /// A Latin-1 locale reads every byte: nothing is undecodable.
    @Test(arguments: [
        (
            "ANSI_X3.4-1968", [UInt8]([0x63, 0x61, 0x66, 0xE9]),
            [Key.character("c"), .character("a"), .character("f"), .undecodable]
        ),
        ("UTF-8", [0x63, 0x61, 0x66, 0xE9], [.character("c"), .character("a"), .character("f"), .undecodable]),
        (
            "ISO-8859-1", [0x63, 0x61, 0x66, 0xE9],
            [.character("c"), .character("a"), .character("f"), .character("é")]
        ),
        ("ISO-8859-15", [0xA4, 0xFF], [.character("€"), .character("ÿ")]),
    ])
    func theLocalesCharsetDecidesWhatIsUndecodable(codeset: String, typed: [UInt8], keys: [Key]) throws {
        let encoding = try #require(TerminalEncoding(codeset: codeset))
        var decoder = KeyDecoder()
        #expect(decoder.feed(encoding.decode(typed)) + decoder.flush() == keys)
    }

    @Test func aMaskedPasswordThatLostACharacterSaysSoWithNothingOfTheSecretAndAsksForEnterTwice() {
        var driver = SessionDriver(.freeText(label: "Password"))
        driver.start()
        driver.type("caf")
        driver.press(.undecodable)
        let notice = driver.last
        #expect(notice?.event == .unreadable)
        #expect(notice?.text == Wording(language: .en).characterNotRead)
        #expect(driver.session.field.value == "caf")
        #expect(driver.snapshot.isError)
        driver.press(.submit)
        #expect(driver.submitted == nil)
        #expect(driver.last?.text == Wording(language: .en).submitWithoutLostCharacter)
        driver.press(.submit)
        #expect(driver.submitted == "caf")
    }

    @Test(arguments: [[Key.clearField], [.backspace, .backspace, .backspace]])
    func emptyingTheFieldForgetsTheLostCharacter(keys: [Key]) {
        var driver = SessionDriver(.freeText(label: "Password"))
        driver.type("caf")
        driver.press(.undecodable)
        for key in keys { driver.press(key) }
        driver.type("x")
        driver.press(.submit)
        #expect(driver.submitted == "x")
    }

    @Test func aLostCharacterInAPastedPasswordIsSaidToo() {
        var driver = SessionDriver(.freeText(label: "Password"))
        var decoder = KeyDecoder()
        for key in decoder.feed([0x1B] + bytes("[200~caf") + [0xE9] + bytes("\u{1B}[201~")) { driver.press(key) }
        #expect(driver.last?.event == .unreadable)
        driver.press(.submit)
        #expect(driver.submitted == nil)
    }

    @Test func inACodeFieldTypingOneIsSaidAndTheCodeStillSubmitsItself() {
        var driver = SessionDriver()
        driver.type("123")
        driver.press(.undecodable)
        #expect(driver.last?.event == .unreadable)
        #expect(driver.session.field.value == "123")
        driver.type("456")
        #expect(driver.submitted == "123456")
    }

    /// In a code field, undecodable bytes in a pasted message are the message's, not the code's.
    @Test func inACodeFieldAPastesUndecodableBytesDoNotDrownItsAnnouncement() {
        var driver = SessionDriver(autoSubmit: false)
        var decoder = KeyDecoder()
        let sms = bytes("Seu c") + [0xF3] + bytes("digo: 654321")
        let keys = UnmarkedPaste.recognise(decoder.feed(sms), from: sms)
        #expect(keys.count == 2 && keys.last == .undecodable)
        for key in keys { driver.press(key) }
        #expect(driver.session.field.value == "654321")
        #expect(driver.last?.event == .paste)
    }

    @Test func typedDuringACheckItIsSaidWithTheVerdict() {
        var driver = SessionDriver(PromptConfiguration(checksCode: true))
        driver.type("123456")
        driver.press(.undecodable)
        #expect(driver.session.queuedKeys == [.undecodable])
        driver.checkRejected()
        // One announcement, so nothing cuts the verdict off: the notice is said with it.
        #expect(driver.last?.event == .checkFailed)
        #expect(driver.last?.text.hasSuffix(Wording(language: .en).characterNotRead) == true)
    }

    @Test(arguments: [Language.en, .ptBR])
    func theNoticeIsWordedInBothLanguagesAndLoggedAsItsOwnEvent(language: Language) {
        let wording = Wording(language: language)
        #expect(!wording.characterNotRead.isEmpty && !wording.submitWithoutLostCharacter.isEmpty)
        #expect(
            wording.characterNotRead
                != Wording(language: Language.allCases.first { $0 != language } ?? .en).characterNotRead)
        #expect(Announcement.Event.unreadable.rawValue == "unreadable")
        var question = ConfirmSession(question: "Continue?", language: language)
        #expect(question.handle(.undecodable).first == .announce(Announcement(.unreadable, wording.characterNotRead)))
    }
}
