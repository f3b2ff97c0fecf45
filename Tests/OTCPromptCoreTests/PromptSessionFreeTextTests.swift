import Testing

@testable import OTCPromptCore

/// Free text (askpass password and user-name prompts): any printable character, not a fixed
/// length, Enter submits; `?` and spaces are part of the text.
@Suite struct PromptSessionFreeTextTests {
    @Test func theConfigurationOfAFreeTextField() {
        let configuration = PromptConfiguration.freeText(label: "Password")
        #expect(configuration.length == PromptConfiguration.freeTextMaxLength)
        #expect(configuration.charset == .any)
        #expect(configuration.mask)
        #expect(!configuration.autoSubmit)
        #expect(configuration.kind == .freeText)
        let session = PromptSession(configuration: configuration)
        #expect(session.field.kind == .freeText)
        #expect(session.field.length == 256)
    }

    @Test(arguments: Language.withGoldenTexts, Verbosity.allCases)
    func thePromptNamesASecretNotACode(language: Language, verbosity: Verbosity) {
        var driver = SessionDriver(.freeText(label: "Password", language: language, verbosity: verbosity))
        driver.start()
        let expected: String =
            switch (language, verbosity) {
            case (.en, .terse): "Password. Type it, then Enter. Secret text."
            case (.en, _): "Password. Type it, then Enter. Secret text, Control R counts them."
            case (.ptBR, .terse): "Password. Digite e pressione Enter. Texto secreto."
            case (.ptBR, _):
                "Password. Digite e pressione Enter. Texto secreto, Control R diz quantos foram digitados."
            default: "no golden text for \(language.tag)"
            }
        #expect(driver.last?.text == expected)
        #expect(driver.last?.text.contains("question mark") == false, "? is typed here, not a help key")
    }

    @Test(arguments: Language.allCases)
    func questionMarksAndSpacesAreTypedAndCounted(language: Language) {
        var driver = SessionDriver(.freeText(label: "Password", language: language))
        driver.type("a ?b")
        let bullet = language.said("bullet")
        let entered = { (count: Int) in language.said("enteredFree", count: count) }
        #expect(driver.speech.texts == (1...4).map { "\(bullet), \(entered($0))" })
        #expect(driver.speech.events == [.digit, .digit, .digit, .digit])
        driver.press(.readBack)
        #expect(driver.last == Announcement(.readback, entered(4)))
        driver.press(.backspace)
        #expect(driver.last?.event == .delete)
        driver.type("b ")
        driver.press(.submit)
        #expect(driver.lastEffects.last == .submit("a ?b "), "spaces, even trailing ones, are kept")
        #expect(driver.last?.isFinal == true)
    }

    /// Text that is not secret (a user name) is said, with spaces and symbols named.
    @Test(arguments: Language.allCases)
    func visibleTextNamesSpacesAndSymbols(language: Language) {
        var driver = SessionDriver(.freeText(label: "Username", mask: false, language: language))
        driver.type("ju ?")
        let (space, question) = (language.said("symbol.space"), language.said("symbol.questionMark"))
        #expect(driver.speech.texts == ["j", "u", space, question])
        driver.press(.readBack)
        let entered = language.said("enteredFree", count: 4)
        #expect(
            driver.last
                == Announcement(.readback, Utterance.characters([["j", "u", space, question]]) + ". \(entered)"))
        driver.type("ac")
        driver.press(.readBack)
        #expect(driver.last?.text.hasPrefix("j u \(space), \(question) a c.") == true, "groups of three")
        driver.press(.backspace)
        #expect(
            driver.last
                == Announcement(.delete, "\(language.said("deleted")) \(spelled: "c")"))
    }

    @Test func enterOnAnEmptyFieldSubmitsNothing() {
        var driver = SessionDriver(.freeText())
        driver.press(.submit)
        #expect(driver.last == Announcement(.incomplete, "empty"))
        #expect(driver.submitted == nil)
        driver.press(.endOfInput)
        #expect(driver.cancelled, "Ctrl-D on the empty field cancels, as on a code")
    }

    @Test(arguments: Language.allCases)
    func theMaximumLengthIsSaidAsSuch(language: Language) {
        var driver = SessionDriver(.freeText(language: language, verbosity: .terse))
        driver.type(String(repeating: "x", count: 255))
        driver.type("y")
        let full = language.said("textFull", 256)
        #expect(driver.last?.text.hasSuffix(full) == true)
        driver.type("z")
        #expect(driver.last == Announcement(.full, full))
        #expect(driver.session.field.count == 256)
        driver.press(.submit)
        #expect(driver.submitted == String(repeating: "x", count: 255) + "y")
    }

    /// A password's spaces, dashes and dots are part of it: a paste is taken as it is, but for
    /// the line break a copied line ends with.
    @Test func aPasteIsTakenAsItIs() {
        var driver = SessionDriver(.freeText(mask: false))
        driver.paste("my pass", "-word.\r\n")
        #expect(driver.session.field.value == "my pass-word.")
        #expect(driver.last?.event == .paste)
        driver.press(.submit)
        #expect(driver.submitted == "my pass-word.")
    }

    @Test func aPasteOfSeveralLinesOrWithControlCharactersIsRejected() {
        for pieces in [["one\ntwo"], ["one\n", "two"], ["tab\there"]] {
            var driver = SessionDriver(.freeText())
            driver.type("x")
            driver.paste(pieces[0], pieces.count > 1 ? pieces[1] : "")
            #expect(
                driver.last == Announcement(.reject, "paste rejected, it holds line breaks or control characters"),
                "\(pieces)")
            #expect(driver.session.field.value == "x")
        }
    }

    @Test func aPasteThatDoesNotFitFillsTheField() {
        var driver = SessionDriver(.freeText(verbosity: .terse))
        driver.type("ab")
        driver.paste(String(repeating: "z", count: 300))
        #expect(driver.session.field.count == 256)
        #expect(driver.last == Announcement(.paste, "pasted, 256 entered, full, 256 at most"))
        driver.paste("q")
        #expect(driver.last?.event == .full)
    }

    @Test func controlCharactersAreNotText() {
        var driver = SessionDriver(.freeText())
        driver.press(.character("\u{7}"))
        #expect(driver.last == Announcement(.reject, "character not allowed, printable characters only"))
        #expect(driver.session.field.isEmpty)
    }
}
