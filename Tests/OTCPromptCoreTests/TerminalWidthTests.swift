import Testing

@testable import OTCPromptCore

/// Widths from a real table, as the terminal draws them.
@Suite struct TerminalWidthTests {
    @Test(
        arguments: [
            ("a", 1), ("é", 1), ("e\u{301}", 1), ("\u{301}", 0), ("\u{200B}", 0), ("\u{200D}", 0), ("\u{202E}", 0),
            ("\u{AD}", 0), ("界", 2), ("９", 2), ("한", 2), ("ア", 2), ("😀", 2), ("☺\u{FE0F}", 2), ("☺", 1),
            ("•", 1), ("●", 1), ("_", 1), ("\u{20DD}", 0), ("\u{1160}", 0), ("\u{3000}", 2), ("\u{1F1E7}\u{1F1F7}", 2),
        ] as [(String, Int)])
    func eachCharacterTakesTheColumnsATerminalGivesIt(text: String, columns: Int) {
        #expect(TerminalWidth.columns(of: text) == columns)
    }

    @Test func aStringIsTheSumOfItsCharacters() {
        #expect(TerminalWidth.columns(of: "Código: 界界") == 12)
    }

    @Test func theGeneratedTableIsSortedAndDisjoint() {
        let ranges = TerminalWidth.wideRanges
        #expect(ranges.count > 50 && ranges.count < 200)
        for (earlier, later) in zip(ranges, ranges.dropFirst()) { #expect(earlier.upperBound < later.lowerBound) }
    }

    @Test(arguments: ["\u{301}", "\u{200B}", "\u{FEFF}", "界", "😀", "ab", "", "\u{7}"])
    func aPlaceholderThatIsNotOneColumnIsRefused(text: String) {
        #expect(BoxesStyle.placeholder(from: text) == nil)
    }

    @Test(arguments: ["_", " ", "•", "-", "é"])
    func aOneColumnPlaceholderIsTaken(text: String) {
        #expect(BoxesStyle.placeholder(from: text) == text.first)
    }
}
