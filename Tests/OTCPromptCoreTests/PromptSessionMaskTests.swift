import OTCPromptTestSupport
import Testing

@testable import OTCPromptCore

/// `--mask`: no announcement may contain a character of the code. The real property: two
/// different codes typed with the same shape of keys produce identical announcements.
@Suite struct PromptSessionMaskTests {
    /// One step of a key sequence, with the code's characters left out.
    enum Step: CaseIterable {
        case typeCodeCharacter, typeNotAllowed, questionMark, backspace, clear, readBack, submit, redraw,
            pasteCodeCharacters, pasteWholeCode, pasteMessageWithCode, endOfInput, ignored,
            checkIsSlow, checkAccepted, checkRejected, checkRejectedEchoingCode, checkRejectedEchoingSpacedCode,
            checkTimedOut, timeLeft
    }

    /// Plays `steps` with the characters of `code` (cycling through it) wherever a step needs one.
    static func transcript(
        _ steps: [Step], code: [Character], configuration: PromptConfiguration
    ) -> [Announcement] {
        var driver = SessionDriver(configuration)
        driver.start()
        var next = 0
        func take(_ count: Int) -> String {
            defer { next += count }
            return String((0..<count).map { code[(next + $0) % code.count] })
        }
        for step in steps {
            switch step {
            case .typeCodeCharacter: driver.type(take(1))
            case .typeNotAllowed: driver.press(.character(configuration.charset == .digits ? "x" : "-"))
            case .questionMark: driver.press(.character("?"))
            case .backspace: driver.press(.backspace)
            case .clear: driver.press(.clearField)
            case .readBack: driver.press(.readBack)
            case .submit: driver.press(.submit)
            case .redraw: driver.press(.redraw)
            case .pasteCodeCharacters: driver.paste(take(2))
            case .pasteWholeCode: driver.paste(take(configuration.length))
            case .pasteMessageWithCode where configuration.charset == .digits:
                driver.paste("Your code is " + take(configuration.length) + ". Do not share it.")
            case .pasteMessageWithCode:
                // Whether a message holds an alphanumeric code may depend on the code itself (a
                // scanner may want a digit in it so words are not taken for codes): not the same shape.
                driver.paste(take(configuration.length))
            case .endOfInput: driver.press(.endOfInput)
            case .ignored: driver.press(.ignored)
            case .checkIsSlow: driver.checkIsSlow()
            case .checkAccepted: driver.checkAccepted()
            case .checkRejected: driver.checkRejected("invalid token")
            // Checks like to echo what they rejected: under the mask that line is not said.
            case .checkRejectedEchoingCode: driver.checkRejected("invalid code " + driver.session.field.value)
            case .checkRejectedEchoingSpacedCode:
                driver.checkRejected(
                    driver.session.field.characters.map(String.init).joined(separator: " ") + " is wrong")
            case .checkTimedOut: driver.checkTimedOut()
            case .timeLeft:
                driver.tick(at: .seconds(1))
                driver.press(.timeLeft)
            }
        }
        return driver.speech.spoken
    }

    static func randomCode(length: Int, charset: CodeCharset, using random: inout SeededRandom) -> [Character] {
        let alphabet = Array(charset == .digits ? "0123456789" : "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        return (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
    }

    @Test(arguments: Language.allCases, [CodeCharset.digits, .alnum])
    func twoCodesTypedAlikeSoundTheSame(language: Language, charset: CodeCharset) {
        var random = SeededRandom(seed: charset == .digits ? 1 : 2)
        for round in 0..<300 {
            let length = 1 + round % 12
            let configuration = PromptConfiguration(
                length: length, charset: charset, mask: true, autoSubmit: round % 3 != 0, language: language,
                verbosity: Verbosity.allCases[round % 3], checksCode: round % 2 == 1, attempts: 1 + round % 3,
                timeLimit: round % 4 == 0 ? .seconds(45) : nil)
            let steps = (0..<(5 + round % 25)).map { _ in
                Step.allCases[Int(random.next() % UInt64(Step.allCases.count))]
            }
            let first = Self.randomCode(length: length, charset: charset, using: &random)
            var second = Self.randomCode(length: length, charset: charset, using: &random)
            while second == first { second = Self.randomCode(length: length, charset: charset, using: &random) }
            let heard = Self.transcript(steps, code: first, configuration: configuration)
            let heardOther = Self.transcript(steps, code: second, configuration: configuration)
            #expect(heard == heardOther, "steps \(steps), codes \(String(first)) / \(String(second))")
        }
    }

    /// The same for free-text secrets (askpass passwords), `?` and symbols included. Spaces,
    /// dashes and dots are left out here: a paste normalises them away, so two secrets pasted
    /// alike may differ in count (spaces typed into a secret: `PromptSessionFreeTextTests`).
    @Test(arguments: Language.allCases)
    func twoSecretsTypedAlikeSoundTheSame(language: Language) {
        var random = SeededRandom(seed: 3)
        let alphabet = Array("abcXYZ019?_!@#é")
        for round in 0..<150 {
            let configuration = PromptConfiguration.freeText(
                language: language, verbosity: Verbosity.allCases[round % 3], checksCode: round % 2 == 0,
                attempts: 1 + round % 3)
            let steps = (0..<(5 + round % 40)).map { _ in
                Step.allCases[Int(random.next() % UInt64(Step.allCases.count))]
            }
            let length = 1 + round % 20
            let secret = { (random: inout SeededRandom) in
                (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            }
            let first = secret(&random)
            var second = secret(&random)
            while second == first { second = secret(&random) }
            let heard = Self.transcript(steps, code: first, configuration: configuration)
            let heardOther = Self.transcript(steps, code: second, configuration: configuration)
            #expect(heard == heardOther, "steps \(steps), secrets \(String(first)) / \(String(second))")
        }
    }

    /// The same property is not true without the mask: the test above can fail.
    @Test func withoutTheMaskDifferentCodesSoundDifferent() {
        let configuration = PromptConfiguration(mask: false)
        let steps: [PromptSessionMaskTests.Step] = [.typeCodeCharacter, .readBack]
        #expect(
            Self.transcript(steps, code: Array("123456"), configuration: configuration)
                != Self.transcript(steps, code: Array("654321"), configuration: configuration))
    }

    /// A direct check too: none of these letters is said.
    @Test(arguments: Language.allCases)
    func noLetterOfAnAlnumCodeIsEverSaid(language: Language) {
        let configuration = PromptConfiguration(
            length: 6, charset: .alnum, mask: true, autoSubmit: false, language: language, verbosity: .verbose)
        let steps: [Step] = [
            .typeCodeCharacter, .typeCodeCharacter, .readBack, .backspace, .typeNotAllowed, .questionMark,
            .pasteCodeCharacters, .readBack, .typeCodeCharacter, .typeCodeCharacter, .typeCodeCharacter, .submit,
        ]
        let transcript = Self.transcript(steps, code: Array("QJXZKW"), configuration: configuration)
        // No letter is spelled, and (words of every language may hold capitals: "Zeichen") the
        // words are those of any other code.
        for announcement in transcript {
            let spelled = announcement.segments.contains { if case .characters = $0 { true } else { false } }
            #expect(!spelled, "\(announcement)")
        }
        #expect(transcript == Self.transcript(steps, code: Array("BDFHMP"), configuration: configuration))
    }

    @Test(arguments: Language.allCases)
    func countsOnly(language: Language) {
        var driver = SessionDriver(mask: true, autoSubmit: false, language: language)
        let said = { (name: String) in language.said(name) }
        let position = { (count: Int) in language.said("position", count, 6) }
        driver.start()
        let opening =
            "\(said("defaultLabel")). \(language.catalog.plural("lead.digitsThenEnter", count: 6, 6)) "
            + "\(Wording.capitalized(language.catalog.plural("kind.hiddenDigits", count: 6, 6))), "
            + "\(said("readBackHint.counts")), \(said("helpHint"))."
        #expect(driver.last?.text == opening)
        driver.type("985")
        #expect(driver.last == Announcement(.digit, "\(said("bullet")), \(position(3))"))
        driver.press(.backspace)
        #expect(driver.last == Announcement(.delete, "\(said("deleted")), \(position(2))"))
        driver.press(.readBack)
        #expect(driver.last == Announcement(.readback, language.catalog.plural("entered", count: 2, 2, 6)))
        driver.press(.character("a"))
        #expect(driver.last == Announcement(.reject, "\(said("notAllowed.hidden")), \(said("only.digits"))"))
        driver.type("5391")
        let full = "\(said("bullet")), \(position(6)), \(said("filled")), \(said("pressEnter"))"
        #expect(driver.last == Announcement(.digit, full))
        driver.press(.submit)
        #expect(driver.last == Announcement(.complete, said("complete")))
        #expect(driver.submitted == "985391")
    }

    @Test func theSnapshotKeepsTheRealCharactersForTheRendererToHide() {
        var driver = SessionDriver(mask: true)
        driver.type("98")
        #expect(driver.snapshot.mask)
        #expect(driver.snapshot.characters == ["9", "8"])
    }

    @Test func autoSubmitInMaskMode() {
        var driver = SessionDriver(mask: true, verbosity: .verbose)
        driver.type("98539")
        driver.press(.character("1"))
        #expect(driver.lastEffects == [.announce(Announcement(.complete, "bullet, code complete")), .submit("985391")])
    }
}
