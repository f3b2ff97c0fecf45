import Testing

@testable import OTCPromptCore

/// The language is found as gettext finds it, and named as `--lang` and the config file name it.
@Suite struct LanguageTests {
    static let environments: [([String: String], Language)] = [
        ([:], .en),
        (["LANG": "pt_BR.UTF-8"], .pt),
        (["LANGUAGE": "es:pt", "LANG": "pt_BR.UTF-8"], .pt),
        (["LANGUAGE": "es:en:pt", "LANG": "pt_BR.UTF-8"], .en),
        (["LANGUAGE": "pt_BR", "LANG": "en_US.UTF-8"], .pt),
        (["LANGUAGE": "", "LANG": "pt_BR.UTF-8"], .pt),
        (["LC_ALL": "C", "LANG": "pt_BR.UTF-8"], .en),
        (["LC_ALL": "C.UTF-8", "LANGUAGE": "pt"], .en),
        (["LC_ALL": "POSIX"], .en),
        (["LANG": "de_AT.UTF-8"], .en),
        (["LANG": "pt_PT.UTF-8"], .pt),
        (["LC_ALL": "", "LC_MESSAGES": "pt_BR.UTF-8", "LANG": "en_US.UTF-8"], .pt),
        (["LC_ALL": "en_GB.UTF-8", "LC_MESSAGES": "pt_BR.UTF-8"], .en),
        (["LC_MESSAGES": "pt_BR@latin"], .pt),
    ]

    @Test(arguments: environments)
    func theEnvironmentNamesTheLanguageAsGettextReadsIt(environment: [String: String], expected: Language) {
        #expect(Language.fromEnvironment(environment) == expected)
    }

    @Test(arguments: [
        ("en", Language.en), ("EN", .en), ("en_US.UTF-8", .en), ("pt", .pt), ("PT", .pt), ("pt-BR", .pt),
        ("pt_br", .pt), ("pt_BR.UTF-8", .pt),
    ])
    func aTagOrALocaleNameNamesALanguage(name: String, expected: Language) {
        #expect(Language.matching(name) == expected)
        #expect(Language(rawValue: name) == expected)
    }

    @Test(arguments: ["", "C", "POSIX", "de", "es_ES.UTF-8", "xx-YY"])
    func anUnsupportedNameNamesNone(name: String) {
        #expect(Language.matching(name) == nil)
    }

    @Test(arguments: Language.allCases)
    func eachLanguageIsNamedByItsOwnTag(language: Language) {
        #expect(Language(rawValue: language.tag) == language)
        #expect(!language.espeakVoice.isEmpty && !language.speechDispatcherCode.isEmpty)
    }

    @Test func englishIsRegisteredFirstAsTheFallbackOfEveryMessage() {
        #expect(Language.allCases.first == .en)
    }
}
