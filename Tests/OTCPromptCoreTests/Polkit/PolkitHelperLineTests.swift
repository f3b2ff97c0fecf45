import Testing

@testable import OTCPromptCore

/// polkit-agent-helper-1's lines, as polkit's own agent library reads them.
@Suite struct PolkitHelperLineTests {
    private func line(_ text: String) -> PolkitHelperLine { PolkitHelperLine(Array(text.utf8)) }

    @Test func eachPrefixIsItsKindOfLine() {
        #expect(line("PAM_PROMPT_ECHO_OFF Password: ") == .prompt("Password: ", echo: false))
        #expect(line("PAM_PROMPT_ECHO_ON Login: ") == .prompt("Login: ", echo: true))
        #expect(line("PAM_TEXT_INFO Please touch the device.") == .info("Please touch the device."))
        #expect(line("PAM_ERROR_MSG Authentication token expired") == .error("Authentication token expired"))
        #expect(line("SUCCESS") == .success)
        #expect(line("FAILURE") == .failure)
    }

    @Test func aLineOutsideTheProtocolIsUnknown() {
        #expect(line("PAM_PROMPT_ECHO_OFF") == .unknown)
        #expect(line("hello") == .unknown)
        #expect(line("") == .unknown)
    }

    @Test func theWholeLineIsUnescapedBeforeItsPrefixIsRead() {
        #expect(line("PAM_TEXT_INFO Touch\\tthe key\\nnow") == .info("Touch\tthe key\nnow"))
        #expect(line("PAM_PROMPT_ECHO_OFF Mot de passe\\302\\240: ") == .prompt("Mot de passe\u{A0}: ", echo: false))
        #expect(line("PAM\\137TEXT_INFO hi") == .info("hi"))
    }

    @Test(arguments: [
        ("a\\\\b", "a\\b"), ("\\\"q\\\"", "\"q\""), ("\\b\\f\\r\\v", "\u{08}\u{0C}\r\u{0B}"), ("\\101\\1012", "AA2"),
        ("\\7x", "\u{07}x"), ("\\q", "q"), ("end\\", "end"), ("\\0", "\u{00}"),
    ])
    func escapesAreUndoneAsGLibDoes(escaped: String, plain: String) {
        #expect(PolkitHelperLine.unescape(Array(escaped.utf8)) == Array(plain.utf8))
    }
}
