import OTCPromptCore
import OTCPromptTerminal
import Testing

/// The terminal's charset is the locale's, read from the environment given.
@Suite struct LocaleCodesetTests {
    @Test(
        arguments: [
            (["LANG": "C.UTF-8"], "UTF-8"),
            (["LC_ALL": "C"], "ANSI_X3.4-1968"),
            ([:], "ANSI_X3.4-1968"),
            (["LC_ALL": "", "LC_CTYPE": "C.UTF-8", "LANG": "C"], "UTF-8"),
            (["LC_ALL": "C", "LANG": "C.UTF-8"], "ANSI_X3.4-1968"),
            // Not installed on this machine (only C and C.UTF-8 are): the codeset the name spells.
            (["LANG": "pt_BR.ISO-8859-1"], "ISO-8859-1"),
            (["LANG": "pt_PT.ISO-8859-15@euro"], "ISO-8859-15"),
            (["LANG": "ru_RU.KOI8-R"], "KOI8-R"),
        ] as [([String: String], String)])
    func theCodesetIsTheNamedLocales(environment: [String: String], codeset: String) {
        #expect(LocaleCodeset.current(environment: environment) == codeset)
    }

    @Test func onlyTheCharsetsItCanTranscodeHaveAnEncoding() {
        #expect(LocaleCodeset.encoding(environment: ["LANG": "C.UTF-8"]) == .utf8)
        #expect(LocaleCodeset.encoding(environment: ["LANG": "pt_BR.ISO-8859-1"]) == .latin1)
        #expect(LocaleCodeset.encoding(environment: ["LANG": "ru_RU.KOI8-R"]) == nil)
    }
}
