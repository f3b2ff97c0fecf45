import Testing

@testable import OTCPromptCore

/// Every key in a secret is either kept or said: Tab is kept in a hidden free-text secret (cryptsetup's and sudo's
/// prompts keep it), said not typed where it cannot be kept, and a key that types nothing is said.
@Suite struct PromptSessionTabTests {
    @Test func tabIsKeptInAHiddenSecretAndCountedAsAnyCharacter() {
        var driver = SessionDriver(.freeText(label: "Passphrase"))
        driver.type("ab")
        driver.press(.tab)
        #expect(driver.last == Announcement(.digit, "bullet, 3 entered"))
        driver.type("cd")
        driver.press(.submit)
        #expect(driver.lastEffects.last == .submit("ab\tcd"))
    }

    @Test func deletingATabTakesItOutLikeAnyCharacter() {
        var driver = SessionDriver(.freeText(label: "Passphrase"))
        driver.type("a")
        driver.press(.tab, .backspace)
        #expect(driver.last?.event == .delete)
        driver.press(.submit)
        #expect(driver.lastEffects.last == .submit("a"))
    }

    @Test(arguments: Language.allCases)
    func tabIsSaidNotTypedWhereItCannotBeKept(language: Language) {
        var code = SessionDriver(language: language)
        code.type("98")
        code.press(.tab)
        #expect(code.last == Announcement(.reject, language.said("tabNotTyped")))
        #expect(code.session.field.value == "98")
        var visible = SessionDriver(.freeText(label: "Username", mask: false, language: language))
        visible.type("ju")
        visible.press(.tab)
        #expect(visible.last == Announcement(.reject, language.said("tabNotTyped")))
        #expect(visible.session.field.value == "ju")
    }

    @Test func aKeyThatTypesNothingIsSaid() {
        var driver = SessionDriver(.freeText(label: "Passphrase"))
        driver.type("ab")
        driver.press(.ignored)
        #expect(driver.last == Announcement(.reject, "Key not typed."))
        driver.press(.submit)
        #expect(driver.lastEffects.last == .submit("ab"))
    }
}
