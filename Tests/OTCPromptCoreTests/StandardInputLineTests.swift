import OTCPromptCore
import Testing

@Suite("StandardInputLine: what --stdin prints")
struct StandardInputLineTests {
    @Test(
        "a code is found as a paste would be",
        arguments: [
            ("123456", "123456"), ("123 456", "123456"), ("Your code is 985391. Do not share it.", "985391"),
        ])
    func codes(line: String, expected: String) {
        #expect(StandardInputLine.code(in: line, charset: .digits, length: 6) == Array(expected))
    }

    @Test(
        "no code, a short one, a long one or two candidates print nothing",
        arguments: ["", "12345", "1234567", "111111 or 222222", "hello"])
    func noCode(line: String) {
        #expect(StandardInputLine.code(in: line, charset: .digits, length: 6) == nil)
    }

    @Test("--charset any takes the whole line, spaces and punctuation kept, of any length")
    func freeText() {
        #expect(StandardInputLine.code(in: "correct horse 9!", charset: .any, length: 6) == Array("correct horse 9!"))
        #expect(StandardInputLine.code(in: " x ", charset: .any, length: 6) == Array(" x "))
        #expect(StandardInputLine.code(in: "abc", charset: .any, length: 6) == Array("abc"))
    }

    @Test("--charset any refuses an empty line, control characters and more than the free-text maximum")
    func freeTextRefused() {
        #expect(StandardInputLine.code(in: "", charset: .any, length: 6) == nil)
        #expect(StandardInputLine.code(in: "pass\rword", charset: .any, length: 6) == nil)
        #expect(StandardInputLine.code(in: "pass\u{1B}[2J", charset: .any, length: 6) == nil)
        let longest = String(repeating: "a", count: PromptConfiguration.freeTextMaxLength)
        #expect(StandardInputLine.code(in: longest, charset: .any, length: 6)?.count == longest.count)
        #expect(StandardInputLine.code(in: longest + "a", charset: .any, length: 6) == nil)
    }

    @Test("the problem line names what was expected")
    func problems() {
        #expect(StandardInputLine.problem(charset: .digits, length: 6).contains("no valid 6-digit code"))
        #expect(StandardInputLine.problem(charset: .alnum, length: 8).contains("no valid 8-character code"))
        #expect(StandardInputLine.problem(charset: .any, length: 6).contains("no valid secret"))
    }
}
