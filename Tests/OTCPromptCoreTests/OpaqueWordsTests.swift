import OTCPromptCore
import Testing

/// Fingerprints and key IDs are spelled in groups of four, to be compared by ear.
@Suite struct OpaqueWordsTests {
    @Test(arguments: [
        (
            "ED25519 key fingerprint is SHA256:3uW0xQk7J2r0vC9cVJgk1m1v4c4qG7mH1Xb9Yz0aBcD.",
            "ED25519 key fingerprint is SHA256: 3 u W 0, x Q k 7, J 2 r 0, v C 9 c, V J g k, 1 m 1 v, 4 c 4 q, G 7 m H, 1 X b 9, Y z 0 a, B c D."
        ),
        ("key ID 0x1234ABCD5678EF90", "key ID 0 x 1 2, 3 4 A B, C D 5 6, 7 8 E F, 9 0"),
        ("MD5:ab:cd:ef:01:23:45:67:89", "MD5: a b c d, e f 0 1, 2 3 4 5, 6 7 8 9"),
    ])
    func opaqueWordsAreGrouped(text: String, spoken: String) {
        #expect(CodeGrouping.groupingOpaqueWords(text) == spoken)
    }

    @Test(arguments: [
        "Allow use of key /root/.ssh/id_ed25519?", "Verification code (joe@build.example.org)",
        "The authenticity of host 'build.example.org (192.0.2.7)' can't be established.", "ED25519-SK",
        "password for joe (sudo)", "https://token.example/x",
    ])
    func wordsAndPathsStayAsTheyAre(text: String) {
        #expect(CodeGrouping.groupingOpaqueWords(text) == text)
    }
}
