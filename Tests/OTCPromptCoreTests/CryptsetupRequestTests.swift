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

    @Test(arguments: [("5", 5), ("1", 1), ("0", nil), ("-2", nil), ("many", 3)] as [(String, Int?)])
    func theTriesOptionSetsTheLimitAndZeroMeansNone(tries: String, expected: Int?) {
        let request = CryptsetupRequest(environment: ["CRYPTTAB_OPTION_tries": tries, "CRYPTTAB_TRIED": "2"])
        #expect(request.maximumAttempts == expected)
        #expect(request.attempt == 3)
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
