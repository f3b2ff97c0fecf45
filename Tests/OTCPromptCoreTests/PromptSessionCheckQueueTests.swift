import Testing

@testable import OTCPromptCore

/// `--check`: keys typed while the check runs. Edits wait for the verdict (dropped on accept,
/// the start of the new attempt on reject); keys that only ask are answered at once.
@Suite struct PromptSessionCheckQueueTests {
    static func checking(mask: Bool = false, language: Language = .en) -> SessionDriver {
        PromptSessionCheckTests.checking(mask: mask, language: language)
    }

    @Test(arguments: Language.allCases)
    func keysTypedDuringTheCheckStartTheNewAttemptAfterARejection(language: Language) {
        var driver = Self.checking(language: language)
        driver.type("985391")
        driver.type("12")
        driver.press(.backspace)
        driver.type("3")
        #expect(driver.lastEffects.isEmpty)
        #expect(driver.session.field.value == "985391", "nothing is applied to the code being checked")
        #expect(driver.session.queuedKeys.count == 4)
        driver.checkRejected()
        let text: Utterance =
            "\(language.said("rejected.code")). \(language.said("attemptsLeft", count: 2)). "
            + "\(language.said("newAttempt")): \(spelled: "1 3")."
        #expect(driver.lastEffects == [.announce(Announcement(.checkFailed, text))])
        #expect(driver.session.field.value == "13")
        #expect(!driver.snapshot.isError)
        #expect(driver.session.queuedKeys.isEmpty)
    }
    @Test func queuedKeysInMaskModeAreCounted() {
        var driver = Self.checking(mask: true)
        driver.type("985391")
        driver.type("12")
        driver.checkRejected()
        #expect(
            driver.last == Announcement(.checkFailed, "code rejected. 2 attempts left. New attempt, 2 of 6 entered."))
    }
    @Test func queuedKeysThatOnlyClearLeaveAnEmptyField() {
        var driver = Self.checking()
        driver.type("985391")
        driver.press(.clearField)
        driver.checkRejected()
        #expect(driver.last == Announcement(.checkFailed, "code rejected. 2 attempts left. Type a new code."))
        #expect(driver.session.field.isEmpty)
        #expect(!driver.snapshot.isError)
    }
    @Test func keysTypedDuringTheCheckAreDroppedWhenItAccepts() {
        var driver = Self.checking()
        driver.type("985391")
        driver.type("12")
        driver.checkAccepted()
        #expect(driver.submitted == "985391")
        #expect(driver.session.queuedKeys.isEmpty)
    }
    @Test func aWholeCodeTypedDuringTheCheckIsCheckedNext() {
        var driver = Self.checking()
        driver.type("985391")
        driver.type("1234567")
        driver.checkRejected("invalid")
        #expect(
            driver.lastEffects == [
                .announce(
                    Announcement(
                        .checkFailed,
                        "code rejected: invalid. 2 attempts left. New attempt: \(spelled: "1 2 3, 4 5 6").")),
                .check("123456"),
            ])
        #expect(driver.session.isChecking)
        #expect(driver.session.queuedKeys == [.character("7")], "the key after the code waits for this check")
        driver.checkRejected()
        #expect(driver.session.field.value == "7")
        #expect(driver.session.attemptsLeft == 1)
    }
    @Test func askingKeysAreAnsweredDuringTheCheck() {
        var driver = Self.checking()
        driver.type("985391")
        driver.press(.readBack)
        #expect(driver.last == Announcement(.readback, "\(spelled: "9 8 5, 3 9 1"). All 6."))
        driver.press(.timeLeft)
        #expect(driver.last == Announcement(.timeLeft, "no time limit"))
        driver.press(.character("?"))
        #expect(driver.last?.event == .help)
        driver.press(.redraw)
        #expect(driver.lastEffects == [.redraw])
        driver.press(.ignored, .endOfInput)
        #expect(driver.lastEffects.isEmpty)
        #expect(driver.session.queuedKeys.isEmpty)
    }
    @Test(arguments: [Key.escape, .interrupt])
    func escapeAndControlCCancelDuringTheCheck(key: Key) {
        var driver = Self.checking()
        driver.type("985391")
        driver.type("1")
        driver.press(key)
        #expect(driver.lastEffects == [.announce(Announcement(.cancel, "cancelled")), .cancel])
        #expect(driver.session.isFinished)
        driver.checkRejected()
        driver.checkAccepted()
        #expect(driver.lastEffects.isEmpty, "a verdict after the end changes nothing")
        #expect(driver.submitted == nil)
    }
    @Test func theQueueIsBoundedAndPastePiecesAreJoined() {
        var driver = Self.checking()
        driver.type("985391")
        driver.paste("12", "34", "5")
        #expect(driver.session.queuedKeys == [.pasteBegan, .pasteText("12345"), .pasteEnded])
        driver.type(String(repeating: "1", count: 100))
        #expect(driver.session.queuedKeys.count == PromptSession.queuedKeyLimit)
        driver.checkRejected()
        #expect(driver.session.field.value == "123451", "the pasted five and one typed digit make the next code")
        #expect(driver.checked == ["985391", "123451"])
        #expect(driver.session.queuedKeys.count == PromptSession.queuedKeyLimit - 4)
    }
}
