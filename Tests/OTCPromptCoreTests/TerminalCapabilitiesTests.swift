import Testing

@testable import OTCPromptCore

@Suite struct TerminalCapabilitiesTests {
    private let utf8 = "en_GB.UTF-8"

    @Test(arguments: [nil, "", "dumb"] as [String?])
    func anUnsetEmptyOrDumbTermIsDumbAndColourless(term: String?) {
        var environment = ["COLORTERM": "truecolor", "LANG": utf8]
        environment["TERM"] = term
        let capabilities = TerminalCapabilities(environment: environment)
        #expect(capabilities.isDumb)
        #expect(capabilities.colorDepth == .none)
        #expect(!capabilities.prefersBoxes)
    }

    @Test func colorTermTruecolorOr24bitMeansTrueColour() {
        for value in ["truecolor", "24bit", "TrueColor"] {
            let capabilities = TerminalCapabilities(environment: ["TERM": "xterm-256color", "COLORTERM": value])
            #expect(capabilities.colorDepth == .trueColor)
        }
        #expect(TerminalCapabilities(environment: ["TERM": "xterm-direct"]).colorDepth == .trueColor)
    }

    @Test func a256ColourTermMeansThePalette() {
        #expect(TerminalCapabilities(environment: ["TERM": "xterm-256color"]).colorDepth == .ansi256)
        #expect(
            TerminalCapabilities(environment: ["TERM": "tmux-256color", "COLORTERM": "yes"]).colorDepth == .ansi256)
    }

    @Test func anyOtherTermGetsSixteenColours() {
        #expect(TerminalCapabilities(environment: ["TERM": "linux"]).colorDepth == .ansi16)
        #expect(TerminalCapabilities(environment: ["TERM": "xterm"]).colorDepth == .ansi16)
    }

    @Test func noColorWithAnyNonEmptyValueRemovesColour() {
        for value in ["1", "0", "false", "yes"] {
            let capabilities = TerminalCapabilities(environment: [
                "TERM": "xterm-256color", "COLORTERM": "truecolor", "NO_COLOR": value,
            ])
            #expect(capabilities.colorDepth == .none)
            #expect(!capabilities.isDumb)
        }
        let empty = TerminalCapabilities(environment: ["TERM": "xterm-256color", "NO_COLOR": ""])
        #expect(empty.colorDepth == .ansi256)
    }

    @Test func theLocaleDecidesUTF8InPosixOrder() {
        #expect(TerminalCapabilities(environment: ["LANG": "pt_BR.UTF-8"]).isUTF8)
        #expect(TerminalCapabilities(environment: ["LC_CTYPE": "C.utf8", "LANG": "C"]).isUTF8)
        #expect(!TerminalCapabilities(environment: ["LC_ALL": "C", "LANG": utf8]).isUTF8)
        #expect(TerminalCapabilities(environment: ["LC_ALL": "", "LANG": utf8]).isUTF8)
        #expect(!TerminalCapabilities(environment: [:]).isUTF8)
    }

    @Test func boxesArePreferredOnlyWith256ColoursAndUTF8() {
        #expect(TerminalCapabilities(environment: ["TERM": "xterm-256color", "LANG": utf8]).prefersBoxes)
        #expect(
            TerminalCapabilities(environment: ["TERM": "xterm", "COLORTERM": "truecolor", "LANG": utf8]).prefersBoxes)
        #expect(!TerminalCapabilities(environment: ["TERM": "linux", "LANG": utf8]).prefersBoxes)
        #expect(!TerminalCapabilities(environment: ["TERM": "xterm-256color", "LANG": "C"]).prefersBoxes)
        #expect(
            !TerminalCapabilities(environment: ["TERM": "xterm-256color", "LANG": utf8, "NO_COLOR": "1"]).prefersBoxes)
    }

    @Test func aDumbTerminalNeverClaimsColourEvenWhenBuiltByHand() {
        #expect(TerminalCapabilities(isDumb: true, colorDepth: .trueColor, isUTF8: true).colorDepth == .none)
    }

    /// As the GitHub CLI reads GH_ACCESSIBLE_PROMPTER and huh's examples read ACCESSIBLE: set when not empty and not a
    /// false word; `--doctor` says which.
    @Test func accessibleIsSetUnlessEmptyOrAFalseWord() {
        for value in ["1", "true", "yes", "on", "anything"] {
            #expect(TerminalCapabilities(environment: ["TERM": "xterm", "ACCESSIBLE": value]).wantsPlainOutput)
            #expect(DoctorReport.accessibleLine(value).hasPrefix("Screen: plain lines"))
        }
        for value in ["", "0", "false", "no", "False", "NO"] {
            #expect(!TerminalCapabilities(environment: ["TERM": "xterm", "ACCESSIBLE": value]).wantsPlainOutput)
            #expect(DoctorReport.accessibleLine(value).contains("counts as not set"))
        }
        #expect(DoctorReport.accessibleLine(nil).contains("ACCESSIBLE is not set"))
    }
}
