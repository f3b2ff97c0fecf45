import Testing

@testable import OTCPromptCore

/// Without bracketed paste, a burst of text in one read is a paste, and a code it
/// produced is never submitted before the user has heard it and pressed Enter.
@Suite struct UnmarkedPasteTests {
    @Test(arguments: ["1", "\r", "\u{7F}", "\u{1B}"])
    func oneKeyPerReadIsTyping(bytes: String) {
        var decoder = KeyDecoder()
        let bytes = Array(bytes.utf8)
        let keys = decoder.feed(bytes)
        #expect(UnmarkedPaste.recognise(keys, from: bytes) == keys)
    }

    @Test func aBurstOfTextIsOnePasteWithItsLineBreaksAsText() {
        var decoder = KeyDecoder()
        let bytes = Array("Your 2FA code is 123456.\tDo not share it.\r\n".utf8)
        let keys = decoder.feed(bytes)
        #expect(
            UnmarkedPaste.recognise(keys, from: bytes) == [
                .unmarkedPaste("Your 2FA code is 123456. Do not share it.\n")
            ])
    }

    @Test(arguments: ["12\u{7F}3", "12\u{3}", "\u{1B}[A12", "12\u{15}", "\u{1B}[200~123456\u{1B}[201~"])
    func aReadWithKeysThatAreNotTextStaysKeys(bytes: String) {
        var decoder = KeyDecoder()
        let bytes = Array(bytes.utf8)
        let keys = decoder.feed(bytes)
        #expect(UnmarkedPaste.recognise(keys, from: bytes) == keys)
    }

    @Test(arguments: [
        ("Your 2FA code is 123456. Do not share it.", "123456"),
        ("Seu código de verificação é 654321. Não compartilhe.", "654321"),
        ("123456", "123456"),
        ("123 456\n", "123456"),
    ])
    func anUnmarkedPasteFillsTheFieldButWaitsForEnter(text: String, code: String) {
        var driver = SessionDriver()
        driver.start()
        driver.press(.unmarkedPaste(text))
        #expect(driver.snapshot.characters == Array(code))
        #expect(driver.submitted == nil)
        #expect(driver.last?.event == .paste)
        #expect(driver.last?.text.contains("press Enter") == true)
        driver.press(.submit)
        #expect(driver.submitted == code)
    }

    @Test func aMaskedUnmarkedPasteWaitsForEnterEvenWhenTerse() {
        var driver = SessionDriver(mask: true, verbosity: .terse)
        driver.press(.unmarkedPaste("Your code is 987654"))
        #expect(driver.submitted == nil)
        #expect(driver.last?.text.contains("press Enter") == true)
        #expect(driver.last?.text.contains("9") == false)
        driver.press(.submit)
        #expect(driver.submitted == "987654")
    }

    @Test func withACheckNothingIsCheckedBeforeEnter() {
        var driver = SessionDriver(PromptConfiguration(checksCode: true))
        driver.press(.unmarkedPaste("123456"))
        #expect(driver.checked.isEmpty)
        driver.press(.submit)
        #expect(driver.checked == ["123456"])
    }

    @Test func aBurstTypedOnTopOfAPartCodeIsAppendedAndStillWaits() {
        var driver = SessionDriver()
        driver.type("12")
        driver.press(.unmarkedPaste("34"), .unmarkedPaste("56"))
        #expect(driver.snapshot.characters == Array("123456"))
        #expect(driver.submitted == nil)
    }

    @Test func aPastedYesIsTypedIntoTheQuestionNotAnswered() {
        var question = ConfirmSession(
            question: "Allow?", details: [], acceptsFingerprint: false, language: .en, verbosity: .normal,
            timeLimit: nil)
        let effects = question.handle(.unmarkedPaste("yes\n"))
        #expect(!effects.contains(.confirmed(true)))
        #expect(question.handle(.submit).contains(.confirmed(true)))
    }

    @Test func aFreeTextPasteIsKeptWholeAndWaitsForEnter() {
        var driver = SessionDriver(.freeText(label: "Password", mask: true))
        driver.press(.unmarkedPaste("correct horse\n"))
        #expect(driver.submitted == nil)
        driver.press(.submit)
        #expect(driver.submitted == "correct horse")
    }
}
