import OTCPromptCore
import Testing

@Suite struct TextSearchTests {
    @Test(arguments: [
        ("Are you sure (yes/no/[fingerprint])?", "(yes/no", true), ("xterm-256color", "256color", true),
        ("en_US.UTF-8", "utf-8", false), ("", "", true), ("abc", "", true), ("", "a", false), ("ab", "abc", false),
        ("aab", "ab", true), ("café au lait", "é a", true), ("e\u{301}", "e", false),
    ])
    func findsTextCharacterByCharacter(text: String, other: String, found: Bool) {
        #expect(text.contains(text: other) == found)
        #expect((text.firstRange(ofText: other) != nil) == found)
    }

    @Test func theRangeIsWhereTheTextIs() throws {
        let text = "continue connecting (yes/no)?"
        let range = try #require(text.firstRange(ofText: "(yes/no"))
        #expect(text[range] == "(yes/no")
        #expect(text[..<range.lowerBound] == "continue connecting ")
        let inSubstring = try #require(text.dropFirst(4).firstRange(ofText: "con"))
        #expect(text[inSubstring.lowerBound...].hasPrefix("connecting"))
    }

    @Test func replacesEveryOccurrenceLeftToRight() {
        #expect("a|b||c".replacing(text: "|", with: "\\|") == "a\\|b\\|\\|c")
        #expect("**bold** and `code`".replacing(text: "**", with: "") == "bold and `code`")
        #expect("aaa".replacing(text: "aa", with: "b") == "ba")
        #expect("abc".replacing(text: "", with: "x") == "abc")
    }
}
