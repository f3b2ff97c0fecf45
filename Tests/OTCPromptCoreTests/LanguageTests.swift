import Testing

@testable import OTCPromptCore

/// The language is found as gettext finds it, and named as `--lang` and the config file name it.
@Suite struct LanguageTests {
    static let environments: [([String: String], Language)] = [
        ([:], .en),
        (["LANG": "pt_BR.UTF-8"], .ptBR),
        (["LANG": "pt_PT.UTF-8"], .pt),
        (["LANG": "pt_AO.UTF-8"], .pt),
        (["LANG": "de_AT.UTF-8"], .de),
        (["LANG": "de_CH.UTF-8"], .de),
        (["LANG": "es_MX.UTF-8"], .es),
        (["LANG": "fr_CA.UTF-8"], .fr),
        (["LANG": "fr_BE.ISO-8859-15@euro"], .fr),
        (["LANGUAGE": "es:pt", "LANG": "pt_BR.UTF-8"], .es),
        (["LANGUAGE": "xx:fr", "LANG": "de_DE.UTF-8"], .fr),
        (["LANGUAGE": "pt", "LANG": "pt_BR.UTF-8"], .pt),
        (["LANGUAGE": "xx:en:pt", "LANG": "pt_BR.UTF-8"], .en),
        (["LANGUAGE": "pt_BR", "LANG": "en_US.UTF-8"], .ptBR),
        (["LANGUAGE": "", "LANG": "pt_BR.UTF-8"], .ptBR),
        (["LANGUAGE": "xx:yy", "LANG": "de_DE.UTF-8"], .de),
        // gettext ignores LANGUAGE when the locale is C or POSIX, or none is set (which is C)…
        (["LC_ALL": "C", "LANG": "pt_BR.UTF-8"], .en),
        (["LC_ALL": "C", "LANGUAGE": "fr"], .en),
        (["LC_ALL": "POSIX", "LANGUAGE": "de"], .en),
        (["LANGUAGE": "es"], .en),
        // …but not when it is C.UTF-8, a locale of its own (`LC_ALL=C.UTF-8 LANGUAGE=pt_BR grep --x`).
        (["LC_ALL": "C.UTF-8", "LANGUAGE": "pt"], .pt),
        (["LC_ALL": "C.UTF-8"], .en),
        (["LANG": "xx_XX.UTF-8"], .en),
        (["LC_ALL": "", "LC_MESSAGES": "pt_BR.UTF-8", "LANG": "en_US.UTF-8"], .ptBR),
        (["LC_ALL": "en_GB.UTF-8", "LC_MESSAGES": "pt_BR.UTF-8"], .en),
        (["LC_MESSAGES": "es_ES.UTF-8", "LANG": "fr_FR.UTF-8"], .es),
        (["LC_MESSAGES": "pt_BR@latin"], .ptBR),
    ]

    @Test(arguments: environments)
    func theEnvironmentNamesTheLanguageAsGettextReadsIt(environment: [String: String], expected: Language) {
        #expect(Language.fromEnvironment(environment) == expected)
    }

    @Test(arguments: [
        ("en", Language.en), ("EN", .en), ("en_US.UTF-8", .en), ("pt", .pt), ("PT", .pt), ("pt_PT", .pt),
        ("pt-PT", .pt), ("pt_PT.UTF-8@euro", .pt), ("pt-BR", .ptBR), ("pt_br", .ptBR), ("pt_BR.UTF-8", .ptBR),
        ("de", .de), ("de_AT", .de), ("de-CH", .de), ("es", .es), ("es_MX.UTF-8", .es), ("es-419", .es),
        ("fr", .fr), ("fr_CA", .fr), ("FR-ca", .fr),
    ])
    func aTagOrALocaleNameNamesALanguage(name: String, expected: Language) {
        #expect(Language.matching(name) == expected)
        #expect(Language(rawValue: name) == expected)
    }

    @Test(arguments: ["", "C", "POSIX", "C.UTF-8", "xx", "qq_QQ.UTF-8", "xx-YY"])
    func anUnsupportedNameNamesNone(name: String) {
        #expect(Language.matching(name) == nil)
    }

    @Test(arguments: Language.allCases)
    func eachLanguageIsNamedByItsOwnTag(language: Language) {
        #expect(Language(rawValue: language.tag) == language)
        #expect(Language.fromEnvironment(["LANG": language.tag.replacing(text: "-", with: "_") + ".UTF-8"]) == language)
        #expect(!language.espeakVoice.isEmpty && !language.speechDispatcherCode.isEmpty)
    }

    @Test func englishIsRegisteredFirstAsTheFallbackOfEveryMessage() {
        #expect(Language.allCases.first == .en)
    }

    /// A catalog added later joins these; none of them may go missing.
    @Test func theSixLanguagesAndTheirVoicesComeFromTheCatalogs() {
        let registered = Set(Language.allCases.map { "\($0.tag) \($0.espeakVoice) \($0.speechDispatcherCode)" })
        #expect(
            registered.isSuperset(of: [
                "en en en", "de de de", "es es es", "fr fr fr", "pt pt pt-PT", "pt-BR pt-br pt-BR",
            ]))
    }
}
