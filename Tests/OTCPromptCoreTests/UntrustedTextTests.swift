import OTCPromptCore
import Testing

/// Nothing from outside reaches the terminal or the voice raw, and nothing is hidden.
@Suite struct UntrustedTextTests {
    @Test(arguments: [
        ("Code\u{1b}]0;PWNED\u{07}: ", "Code\\x1B]0;PWNED\\x07: "),
        ("Bank\u{9b}31m code\u{7f}", "Bank\\x9B31m code\\x7F"),
        ("pay \u{202E}cod.exe", "pay <U+202E>cod.exe"),
        ("zero\u{200B}width\u{FEFF}", "zero<U+200B>width<U+FEFF>"),
        ("isolate \u{2066}x\u{2069}", "isolate <U+2066>x<U+2069>"),
        ("tag \u{E0041}", "tag <U+E0041>"),
        ("one\ntwo\r\nthree\tfour", "one two  three four"),
        ("Código de verificação ９８７", "Código de verificação ９８７"),
        ("nul\u{0}", "nul\\x00"),
    ])
    func visibleEscapesWhatCouldActOrHide(text: String, shown: String) {
        #expect(UntrustedText.visible(text) == shown)
    }

    @Test func noEscapedScalarSurvives() {
        var everything = ""
        for value in [0, 0x1B, 0x7F, 0x85, 0x9B, 0x200E, 0x200F, 0x202A, 0x202E, 0x2066, 0x2069, 0x061C, 0x180E] {
            everything.unicodeScalars.append(Unicode.Scalar(value)!)
        }
        let shown = UntrustedText.visible(everything)
        #expect(!shown.unicodeScalars.contains(where: UntrustedText.isEscaped))
        #expect(shown.unicodeScalars.allSatisfy { $0.isASCII || $0 == " " })
    }

    @Test func visibleLinesSplitsAtEveryKindOfLineBreak() {
        #expect(UntrustedText.visibleLines("a\nb\r\nc\rd\u{85}e\u{2028}f") == ["a", "b", "c", "d", "e", "f"])
        #expect(UntrustedText.visibleLines("key \u{1b}[31mred\nAllow?") == ["key \\x1B[31mred", "Allow?"])
        #expect(UntrustedText.visibleLines("") == [""])
    }
}
