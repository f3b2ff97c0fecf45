import Testing

@testable import OTCPromptCore

/// The disk passphrase cryptsetup's initramfs asks through `keyscript=`: what its variables say, and the
/// masked field they become.
@Suite struct CryptsetupRequestTests {
    @Test func theFirstTryOfADiskUnderDevIsNamedByItsDevice() {
        let request = CryptsetupRequest(environment: [
            "CRYPTTAB_NAME": "sda2_crypt", "CRYPTTAB_SOURCE": "/dev/sda2", "CRYPTTAB_TRIED": "0",
        ])
        #expect(request == CryptsetupRequest(disk: "sda2", attempt: 1, maximumAttempts: 3))
    }

    @Test func aSourceOutsideDevIsNamedByTheMapping() {
        let request = CryptsetupRequest(environment: [
            "CRYPTTAB_NAME": "cryptroot", "CRYPTTAB_SOURCE": "UUID=1234", "CRYPTTAB_TRIED": "1",
        ])
        #expect(request == CryptsetupRequest(disk: "cryptroot", attempt: 2, maximumAttempts: 3))
    }

    @Test(arguments: [("5", 5), ("3", 3), ("0", nil), ("9999", 9999)] as [(String, Int?)])
    func theTriesOptionSetsTheLimitAndZeroMeansNone(tries: String, expected: Int?) {
        let request = CryptsetupRequest(environment: ["CRYPTTAB_OPTION_tries": tries, "CRYPTTAB_TRIED": "2"])
        #expect(request.maximumAttempts == expected)
        #expect(request.attempt == 3)
        #expect(request.problems.isEmpty)
    }

    @Test(arguments: ["-2", "many", "10000", "18446744073709551617", "+3", " 3", "3\u{1B}[2J"])
    func aTriesOptionOutOfRangeTakesCryptrootsDefaultAndSaysSo(tries: String) {
        let request = CryptsetupRequest(environment: ["CRYPTTAB_OPTION_tries": tries, "CRYPTTAB_TRIED": "1"])
        #expect(request.maximumAttempts == 3)
        #expect(request.attempt == 2)
        #expect(request.problems.count == 1)
        let line = request.problems.first ?? ""
        #expect(line.hasPrefix("CRYPTTAB_OPTION_tries=") && line.hasSuffix("taken as 3, cryptroot's default"))
        #expect(!line.contains("\u{1B}"), "the value is shown escaped, never obeyed")
    }

    @Test(
        arguments: [
            ("9223372036854775807", "3"), ("-1", "3"), ("3", "3"), ("5", "3"), ("x", "3"), ("9999", "0"),
        ])
    func aTryCountOutOfRangeIsTheFirstTryAndSaysSoNeverATrap(tried: String, tries: String) {
        let request = CryptsetupRequest(environment: ["CRYPTTAB_TRIED": tried, "CRYPTTAB_OPTION_tries": tries])
        #expect(request.attempt == 1)
        #expect(request.problems.count == 1)
        #expect(request.problems.first?.hasSuffix("taken as 0, the first try") == true)
        #expect(request.configuration(language: .en).details.isEmpty, "no \"try 6 of 3\"")
    }

    @Test func withoutALimitAnyTryBelowTheMostIsBelieved() {
        let request = CryptsetupRequest(environment: ["CRYPTTAB_TRIED": "9998", "CRYPTTAB_OPTION_tries": "0"])
        #expect(request.attempt == 9999)
        #expect(request.maximumAttempts == nil && request.problems.isEmpty)
    }

    @Test func nothingSetIsAFirstTryOfAnUnnamedDisk() {
        let request = CryptsetupRequest(environment: [:])
        #expect(request == CryptsetupRequest(disk: nil, attempt: 1, maximumAttempts: 3))
        #expect(request.configuration(language: .en).label == "Unlock disk")
    }

    @Test func aNameWithAnEscapeSequenceIsShownEscapedNeverObeyed() {
        let request = CryptsetupRequest(environment: ["CRYPTTAB_NAME": "root\u{1B}[2J"])
        #expect(request.disk == "root\\x1B[2J")
    }

    @Test(arguments: Language.allCases)
    func theFieldIsAMaskedSecretThatEnterSubmits(language: Language) {
        let field = CryptsetupRequest(disk: "sda2").configuration(language: language)
        #expect(field.kind == .freeText)
        #expect(field.mask)
        #expect(!field.autoSubmit)
        #expect(!field.checksCode, "cryptroot judges the passphrase, not the prompt")
        #expect(field.details.isEmpty)
        #expect(field.label == language.said("diskUnlock.label", "sda2"))
    }

    @Test(arguments: Language.withGoldenTexts)
    func aRetryOpensWithTheNewsThenTheLabel(language: Language) {
        let field = CryptsetupRequest(disk: "sda2", attempt: 2, maximumAttempts: 3).configuration(language: language)
        var driver = SessionDriver(field)
        driver.start()
        let expected: String =
            language == .en
            ? "Wrong passphrase, try 2 of 3. Unlock disk sda2. Type it, then Enter. Secret text, Control R counts them."
            : "Frase secreta errada, tentativa 2 de 3. Desbloquear o disco sda2. Digite e pressione Enter. "
                + "Texto secreto, Control R diz quantos foram digitados."
        #expect(driver.last?.text == expected)
    }

    @Test(arguments: Language.allCases)
    func withoutALimitTheRetrySaysOnlyWhichTry(language: Language) {
        let field = CryptsetupRequest(disk: "sda2", attempt: 4, maximumAttempts: nil).configuration(language: language)
        #expect(field.news == [language.said("diskUnlock.wrongPassphraseNoLimit", 4)])
    }

    @Test func thePassphraseIsNeverSpokenOnlyCounted() {
        var driver = SessionDriver(CryptsetupRequest(disk: "sda2").configuration(language: .en))
        driver.start()
        driver.type("hunter2")
        for announcement in driver.speech.spoken { #expect(!announcement.text.contains("hunter")) }
        #expect(driver.last?.text.contains("7") == true)
    }
}
