import Testing

@testable import OTCPromptCore

/// Assuan's lines, escapes and error numbers, as libassuan and pinentry 1.2 write them.
@Suite struct AssuanTests {
    @Test func aLineIsACaseInsensitiveCommandAndItsArgument() throws {
        #expect(
            try AssuanLine.parse(Array("setdesc  Hello%0AWorld ".utf8))
                == AssuanLine(command: "SETDESC", argument: "Hello%0AWorld "))
        #expect(try AssuanLine.parse(Array("NOP\r".utf8)) == AssuanLine(command: "NOP", argument: ""))
    }

    @Test(arguments: ["", "# a comment", "#"])
    func emptyLinesAndCommentsAreSkipped(line: String) throws {
        #expect(try AssuanLine.parse(Array(line.utf8)) == nil)
    }

    @Test func aLeadingBlankIsASyntaxError() {
        #expect(throws: AssuanError.syntax("leading white-space")) { try AssuanLine.parse(Array("  NOP".utf8)) }
    }

    @Test(arguments: [
        ("Hello%0AWorld", "Hello\nWorld"), ("100%25", "100%"), ("a%0d%0Ab", "a\r\nb"), ("%zz%4", "%zz%4"),
        ("%22Alice%22", "\"Alice\""), ("caf%C3%A9", "café"), ("", ""),
    ])
    func percentEscapesAreDecoded(escaped: String, decoded: String) {
        #expect(AssuanEscaping.decode(escaped) == decoded)
    }

    private func dataLines(_ text: String) -> String {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { data in
            let input = UnsafeBufferPointer(data)
            var output = [UInt8](repeating: 0xEE, count: AssuanEscaping.dataLinesCapacity(for: input))
            let count = output.withUnsafeMutableBufferPointer { AssuanEscaping.writeDataLines(input, into: $0) }
            return String(decoding: output[..<count], as: UTF8.self)
        }
    }

    @Test func dataEscapesPercentCarriageReturnAndLineFeedOnly() {
        #expect(dataLines("p%ss\r\nwörd ok") == "D p%25ss%0D%0Awörd ok\n")
        #expect(dataLines("") == "")
    }

    @Test(arguments: [1, 997, 998, 999, 2500])
    func longDataIsSplitIntoLinesOfAtMostOneThousandBytes(count: Int) {
        let text = String(repeating: "a", count: count - 1) + "%"
        let lines = dataLines(text).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.allSatisfy { $0.hasPrefix("D ") && $0.utf8.count + 1 <= AssuanEscaping.maximumDataLineLength })
        #expect(AssuanEscaping.decode(lines.map { String($0.dropFirst(2)) }.joined()) == text)
        #expect(lines.allSatisfy { !$0.hasSuffix("%") && !$0.hasSuffix("%2") })
    }

    @Test func errorNumbersCarryTheSourceInTheHighByte() {
        #expect(AssuanError.canceled.line == "ERR 83886179 Operation cancelled <Pinentry>")
        #expect(AssuanError.notConfirmed.line == "ERR 83886194 Not confirmed <Pinentry>")
        #expect(AssuanError.unknownCommand.line == "ERR 536871187 Unknown IPC command <User defined source 1>")
        #expect(
            AssuanError.syntax("argument required").line
                == "ERR 536871188 IPC syntax error <User defined source 1> - argument required")
        #expect(
            AssuanError.terminalUnusable(errno: 25).line == "ERR 83918950 Inappropriate ioctl for device <Pinentry>")
        #expect(AssuanError.terminalUnusable(errno: 2).line == "ERR 83918929 No such file or directory <Pinentry>")
    }
}
