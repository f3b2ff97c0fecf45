import Testing

@testable import OTCPromptCore

/// `--check`: the verdict comes back as calls; keys typed meanwhile wait; a rejected code stays
/// shown until the next key that edits, which starts the new attempt.
@Suite struct PromptSessionCheckTests {
    static func checking(
        attempts: Int = 3, mask: Bool = false, autoSubmit: Bool = true, language: Language = .en,
        verbosity: Verbosity = .normal
    ) -> SessionDriver {
        SessionDriver(
            PromptConfiguration(
                mask: mask, autoSubmit: autoSubmit, language: language, verbosity: verbosity, checksCode: true,
                attempts: attempts))
    }

    @Test(arguments: Language.allCases)
    func aFullFieldGoesToTheCheckNotToStandardOutput(language: Language) {
        var driver = Self.checking(language: language)
        driver.type("985391")
        #expect(driver.lastEffects == [.announce(Announcement(.digit, "\(spelled: "1")")), .check("985391")])
        #expect(driver.session.isChecking)
        #expect(driver.submitted == nil)
        #expect(!driver.session.isFinished)
    }

    @Test func enterSendsAFullFieldToTheCheckWithoutWords() {
        var driver = Self.checking(autoSubmit: false)
        driver.type("985391")
        driver.press(.submit)
        #expect(driver.lastEffects == [.check("985391")])
    }

    @Test func whatTheLastCharacterSaysBeforeTheVerdict() {
        var verbose = Self.checking(verbosity: .verbose)
        verbose.type("985391")
        #expect(verbose.lastAnnouncements == [Announcement(.digit, "\(spelled: "1"), 6 of 6")])
        var masked = Self.checking(mask: true)
        masked.type("985391")
        #expect(masked.lastAnnouncements == [Announcement(.digit, "bullet, 6 of 6")])
        var pasted = Self.checking()
        pasted.paste("985391")
        #expect(
            pasted.lastEffects == [
                .announce(Announcement(.paste, "pasted: \(spelled: "9 8 5, 3 9 1"). 6 of 6")), .check("985391"),
            ])
    }

    @Test(arguments: Language.allCases)
    func checkingIsSaidOncePerCheck(language: Language) {
        var driver = Self.checking(language: language)
        driver.checkIsSlow()
        #expect(driver.lastEffects.isEmpty, "no check is running")
        driver.type("985391")
        driver.checkIsSlow()
        #expect(
            driver.lastEffects == [.announce(Announcement(.checking, language.said("checking")))])
        driver.checkIsSlow()
        #expect(driver.lastEffects.isEmpty)
        driver.checkRejected()
        driver.type("123456")
        driver.checkIsSlow()
        #expect(driver.last?.event == .checking, "a new check may be slow too")
    }

    @Test(arguments: Language.allCases)
    func rejectedThenAccepted(language: Language) {
        var driver = Self.checking(language: language)
        driver.type("985391")
        driver.checkRejected("invalid token")
        let rejected =
            "\(language.said("rejected.code")): invalid token. \(language.said("attemptsLeft", count: 2)). "
            + language.said("typeAgain.code")
        #expect(driver.lastEffects == [.announce(Announcement(.checkFailed, rejected))])
        #expect(driver.last?.isFinal == false)
        #expect(driver.session.field.value == "985391", "the rejected code stays shown")
        #expect(driver.snapshot.isError)
        #expect(driver.session.attemptsLeft == 2)
        driver.press(.character("1"))
        #expect(driver.session.field.value == "1", "the next key clears it and starts over with that key")
        #expect(driver.last == Announcement(.digit, "\(spelled: "1")"))
        #expect(!driver.snapshot.isError)
        driver.type("23456")
        #expect(driver.checked == ["985391", "123456"])
        driver.checkAccepted()
        let accepted = Announcement(.complete, language.said("accepted.code"))
        #expect(driver.lastEffects == [.announce(accepted), .submit("123456")])
        #expect(accepted.isFinal)
        #expect(driver.session.isFinished)
    }

    @Test(arguments: [Key.backspace, .clearField, .submit])
    func backspaceControlUAndEnterAfterARejectionOnlyClear(key: Key) {
        var driver = Self.checking()
        driver.type("985391")
        driver.checkRejected()
        driver.press(key)
        #expect(driver.lastEffects == [.announce(Announcement(.clear, "cleared"))])
        #expect(driver.session.field.isEmpty)
        #expect(!driver.snapshot.isError)
        #expect(driver.checked == ["985391"], "the rejected code is never checked again")
    }

    @Test func keysThatDoNotEditLeaveTheRejectedCodeShown() {
        var driver = Self.checking()
        driver.type("985391")
        driver.checkRejected()
        driver.press(.character("x"))
        #expect(driver.last == Announcement(.reject, "letter \(spelled: "X") not allowed, digits only"))
        driver.press(.readBack)
        #expect(driver.last == Announcement(.readback, "\(spelled: "9 8 5, 3 9 1"). All 6."))
        driver.press(.character("?"))
        #expect(driver.last?.event == .help)
        driver.press(.timeLeft, .redraw, .ignored, .endOfInput)
        #expect(driver.session.field.value == "985391")
        #expect(driver.snapshot.isError)
        driver.press(.character("4"))
        #expect(driver.session.field.value == "4")
    }

    @Test func aPasteAfterARejectionReplacesTheRejectedCode() {
        var driver = Self.checking()
        driver.type("985391")
        driver.checkRejected()
        driver.paste("12")
        #expect(driver.session.field.value == "12")
        #expect(driver.last?.event == .paste)
    }

    @Test(arguments: Language.allCases)
    func attemptsExhaustedFail(language: Language) {
        var driver = Self.checking(attempts: 2, language: language)
        driver.type("985391")
        driver.checkRejected("invalid token.")
        driver.type("123456")
        driver.checkRejected("invalid token.")
        let text =
            "\(language.said("rejected.code")): invalid token. \(language.said("attemptsLeft.none"))."
        #expect(driver.lastEffects == [.announce(Announcement(.checkFailed, text, isFinal: true)), .fail])
        #expect(driver.last?.isFinal == true)
        #expect(driver.session.isFinished)
        driver.press(.character("1"), .submit)
        driver.checkAccepted()
        #expect(driver.lastEffects.isEmpty)
        #expect(driver.submitted == nil)
    }

    @Test func oneAttemptFailsAtTheFirstRejection() {
        var driver = Self.checking(attempts: 1)
        driver.type("985391")
        driver.checkRejected()
        #expect(
            driver.lastEffects == [
                .announce(Announcement(.checkFailed, "code rejected. No attempts left.", isFinal: true)), .fail,
            ])
    }

    @Test(arguments: Language.allCases)
    func aCheckThatTimesOutCountsAsARejection(language: Language) {
        var driver = Self.checking(language: language, verbosity: .terse)
        driver.type("985391")
        driver.checkTimedOut()
        let text =
            "\(language.said("rejected.code")): \(language.said("checkTimedOut")). "
            + "\(language.said("attemptsLeft", count: 2))."
        #expect(driver.lastEffects == [.announce(Announcement(.checkFailed, text))])
        #expect(driver.session.attemptsLeft == 2)
    }

    @Test func aVerdictWithoutACheckChangesNothing() {
        var driver = Self.checking()
        driver.type("98")
        driver.checkAccepted()
        driver.checkRejected()
        driver.checkTimedOut()
        #expect(driver.lastEffects.isEmpty)
        #expect(driver.session.attemptsLeft == 3)
        #expect(driver.session.field.value == "98")
    }

    @Test func maskModeDoesNotSayAnErrorLineThatContainsTheCode() {
        for line in ["invalid code 985391", "code 985-391 rejected", "CODE 985 391 BAD"] {
            var driver = Self.checking(mask: true, verbosity: .terse)
            driver.type("985391")
            driver.checkRejected(line)
            #expect(driver.last == Announcement(.checkFailed, "code rejected. 2 attempts left."), "\(line)")
        }
        var driver = Self.checking(mask: true, verbosity: .terse)
        driver.type("985391")
        driver.checkRejected("invalid token")
        #expect(driver.last == Announcement(.checkFailed, "code rejected: invalid token. 2 attempts left."))
        var shown = Self.checking(verbosity: .terse)
        shown.type("985391")
        shown.checkRejected("invalid code 985391")
        #expect(shown.last?.text.contains("985391") == true, "without the mask the code is said anyway")
    }

    @Test func theErrorLineIsTrimmedAndCut() {
        var driver = Self.checking(verbosity: .terse)
        driver.type("985391")
        driver.checkRejected("   \t ")
        #expect(driver.last?.text == "code rejected. 2 attempts left.")
        driver.type("123456")
        driver.checkRejected("  " + String(repeating: "e", count: 500) + "\n")
        #expect(driver.last?.text == "code rejected: " + String(repeating: "e", count: 200) + ". 1 attempt left.")
    }

    @Test func freeTextWithACheck() {
        var driver = SessionDriver(.freeText(label: "Password", checksCode: true))
        driver.type("pa ss")
        driver.press(.submit)
        #expect(driver.checked == ["pa ss"])
        driver.checkRejected("Permission denied")
        #expect(
            driver.last
                == Announcement(.checkFailed, "not accepted: Permission denied. 2 attempts left. Type it again."))
        driver.type("x")
        #expect(driver.session.field.value == "x")
        driver.press(.submit)
        driver.checkAccepted()
        #expect(driver.last == Announcement(.complete, "accepted"))
        #expect(driver.submitted == "x")
    }
}

/// A check that could not run is an error, not a rejection, and uses no attempt.
@Suite struct CheckCouldNotRunTests {
    @Test func itEndsThePromptWithTheReasonAndUsesNoAttempt() {
        var session = PromptSession(configuration: PromptConfiguration(checksCode: true, attempts: 1))
        for digit in "12345" { _ = session.handle(.character(digit)) }
        #expect(session.handle(.character("6")).last == .check("123456"))
        let effects = session.checkCouldNotRun(
            reason: "the shell could not find the command (status 127)", firstErrorLine: "sh: 1: oathtol: not found")
        let text =
            "the check could not run: the shell could not find the command (status 127): sh: 1: oathtol: not found"
        #expect(effects == [.announce(Announcement(.checkError, text, isFinal: true)), .checkError(text)])
        #expect(session.isFinished)
    }

    @Test func aMaskedCodeInTheErrorLineIsNotSaid() {
        var session = PromptSession(configuration: PromptConfiguration(mask: true, checksCode: true))
        for digit in "123456" { _ = session.handle(.character(digit)) }
        let effects = session.checkCouldNotRun(reason: "it was killed by signal 9", firstErrorLine: "got 123456")
        #expect(effects.allSatisfy { if case .checkError(let text) = $0 { !text.contains("123456") } else { true } })
    }
}

/// Under --mask, no piece of the code reaches the screen, the voice or the log.
@Suite struct MaskedErrorLineTests {
    static let code = "987654"

    @Test(arguments: [
        String(repeating: "x", count: 195) + " 987654",  // past the 200-character cut
        "bad 987", "98765x", "９８７６５４", "٩٨٧٦٥٤", "𝟗𝟖𝟕𝟔𝟓𝟒", "got 9-8-7", "token 654 expired", "7 6 5 failed",
    ])
    func aLineWithThreeOfTheCodesCharactersInOrderIsNotSaid(line: String) {
        #expect(CheckErrorLine.sayable(line, code: Self.code, mask: true) == nil, "\(line)")
        #expect(CheckErrorLine.sayable(line, code: Self.code, mask: false) != nil, "unmasked, the line is said")
    }

    @Test(arguments: ["invalid token", "expired 12 s ago", "code 98 is wrong", "attempt 4 of 5"])
    func aLineWithoutARunOfTheCodeIsSaid(line: String) {
        #expect(CheckErrorLine.sayable(line, code: Self.code, mask: true) == line)
    }

    @Test func aLongLineIsCutAfterItWasMatched() {
        let line = String(repeating: "y", count: 300)
        #expect(CheckErrorLine.sayable(line, code: Self.code, mask: true)?.count == PromptSession.errorLineLimit)
    }
}
