import OTCPromptCore
import Testing

/// The label is shown, spoken and logged: nothing in it may drive the terminal.
@Suite struct PromptLabelTests {
    @Test(arguments: [
        ("Verification code: ", "Verification code"),
        ("  (joe@host) Verification code:  ", "(joe@host) Verification code"),
        ("Code\u{1b}]0;PWNED\u{07}\u{1b}[31m: ", "Code\\x1B]0;PWNED\\x07\\x1B[31m"),
        ("Bank\u{9b}31m code\u{7f}:", "Bank\\x9B31m code\\x7F"),
        ("Line one\nline two:", "Line one line two"),
    ])
    func trimmedEscapesControlsAndDropsTheColon(text: String, label: String) {
        #expect(PromptLabel.trimmed(text) == label)
        #expect(
            !PromptLabel.trimmed(text).unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    @Test func textSpeechNeverWritesAControlCharacter() {
        var written: [String] = []
        let backend = TextSpeechBackend { written.append($0) }
        backend.speak(Announcement(.checkFailed, "code rejected: \u{1b}[2J\u{1b}]0;x\u{07}bad"))
        #expect(written == ["code rejected: \\x1B[2J\\x1B]0;x\\x07bad"])
    }

    @Test func askpassDetailsAreCleanedToo() {
        let prompt = AskpassPrompt.classify(
            "Key \u{1b}[31mfingerprint\nAllow use of key?", environment: ["SSH_ASKPASS_PROMPT": "confirm"])
        #expect(prompt.details.allSatisfy { !$0.contains("\u{1b}") })
    }
}
