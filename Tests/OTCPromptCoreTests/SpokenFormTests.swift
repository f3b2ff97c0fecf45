import OTCPromptCore
import Testing

/// Identifiers are said as identifiers, in groups of characters as a code is read back, never as a number or a word;
/// the screen and the log's text keep them whole, the log's `said` has the words the voice was handed.
@Suite struct SpokenFormTests {
    static func said(_ text: String) -> String { SpokenForm.said(Utterance(text)).text }

    @Test(arguments: [
        (
            "ED25519 key fingerprint is SHA256:3uW0xQk7J2r0vC9cVJgk1m1v4c4qG7mH1Xb9Yz0aBcD.",
            "E D 2 5 5 1 9 key fingerprint is SHA256: 3 u W 0, x Q k 7, J 2 r 0, v C 9 c, V J g k, 1 m 1 v, 4 c 4 q, G 7 m H, 1 X b 9, Y z 0 a, B c D."
        ),
        ("key ID 0x1234ABCD5678EF90", "key ID 0 x 1 2, 3 4 A B, C D 5 6, 7 8 E F, 9 0"),
        ("MD5:ab:cd:ef:01:23:45:67:89", "MD5: a b c d, e f 0 1, 2 3 4 5, 6 7 8 9"),
        // gpg's description: the key ID read "… seven thousand seven hundred forty-nine", EDDSA as "Edsa".
        ("255-bit EDDSA key, ID 42A72DE87749B5B,", "255-bit E D D S A key, ID 4 2 A 7, 2 D E 8, 7 7 4 9, B 5 B,"),
        ("(main key ID 7749B5B2)", "(main key ID 7 7 4 9, B 5 B 2)"),
        ("Number: 0006 87654321", "Number: 0006 8 7 6 5, 4 3 2 1"),
        ("Unlock md127 and nvme0n1p3", "Unlock m d 1 2 7 and nvme0n1p3"),
        ("Enter your OTP", "Enter your O T P"),
        ("ECDSA-SK key", "E C D S A-S K key"),
    ])
    func identifiersAreSpelledInGroups(text: String, spoken: String) {
        #expect(Self.said(text) == spoken)
    }

    @Test(arguments: [
        "Verification code (joe@build.example.org)", "The authenticity of host 'build.example.org (192.0.2.7)'",
        "password for joe (sudo)", "https://token.example/x", "created 2026-11-28", "4096-bit RSA4 key",
        "Please enter passphrase for disk sda2_crypt", "Allow use of key joe@laptop? Yes or no.", "Wait...",
    ])
    func wordsDatesPathsAndDeviceNamesStayAsTheyAre(text: String) {
        #expect(Self.said(text) == text)
    }

    /// A caller's line and ours met as "…,." and ". ?": said once, the stronger mark kept.
    @Test(arguments: [
        ("ID 1234,. created", "ID 1234. created"), ("created 2026-11-28. ? Choices", "created 2026-11-28? Choices"),
        ("sda2_crypt:, empty", "sda2_crypt: empty"), ("e.g., this", "e.g. this"),
    ])
    func doubledPunctuationIsSaidOnce(text: String, spoken: String) {
        #expect(Self.said(text) == spoken)
    }

    /// The log records both where they differ, and only the text where the voice says it as it is.
    @Test func theSpeechLogHasTheWordsSaidBesideTheTextShown() {
        let entry = SpeechLogEntry(Announcement(.prompt, "Key SHA256:3uW0xQk7J2r0vC9c"), milliseconds: 3)
        #expect(entry.text == "Key SHA256:3uW0xQk7J2r0vC9c")
        #expect(entry.said == "Key SHA256: 3 u W 0, x Q k 7, J 2 r 0, v C 9 c")
        #expect(
            entry.jsonLine
                == #"{"event": "prompt", "text": "Key SHA256:3uW0xQk7J2r0vC9c", "ms": 3, "said": "Key SHA256: 3 u W 0, x Q k 7, J 2 r 0, v C 9 c"}"#
        )
        #expect(SpeechLogEntry(Announcement(.digit, "9"), milliseconds: 1).said == nil)
    }

    /// The voice gets the spelled form: each group's letters in say-as, as a code's.
    @Test func theVoiceIsHandedTheSpelledForm() {
        let ssml = SpokenText.ssml(Announcement(.prompt, "255-bit EDDSA key").said)
        #expect(ssml.contains(#"<say-as interpret-as="characters">eddsa</say-as>"#), "\(ssml)")
    }

    /// A line break is said as its joiner, so the punctuation on either side of it is seen together.
    @Test func punctuationAcrossALineBreakIsSaidOnce() {
        let utterance = "created 2026-11-28." + Utterance.lineBreak() + "?"
        #expect(SpokenForm.said(utterance).text == "created 2026-11-28?")
        #expect(utterance.lines == ["created 2026-11-28.", "?"], "the screen keeps the caller's lines")
    }
}
