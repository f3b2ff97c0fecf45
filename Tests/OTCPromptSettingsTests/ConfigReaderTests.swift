import Testing

@testable import OTCPromptSettings

@Suite struct ConfigReaderTests {
    @Test(arguments: [
        ("lang = \"pt\"", ConfigValue.string("pt")),
        ("lang = 'pt'", .string("pt")),
        ("\"lang\" = \"pt\"", .string("pt")),
        ("'lang' = \"pt\"", .string("pt")),
        ("  lang\t=\t\"pt\"   # Portuguese", .string("pt")),
        ("lang = \"p\\u0074\"", .string("pt")),
        ("lang = \"a\\\"b\\\\c\\td\"", .string("a\"b\\c\td")),
        ("lang = 'C:\\no\\escapes'", .string("C:\\no\\escapes")),
        ("lang = \"\\U0001F600\"", .string("😀")),
        ("lang = \"# not a comment\"", .string("# not a comment")),
        ("lang = 320", .integer(320)),
        ("lang = +320", .integer(320)),
        ("lang = -1", .integer(-1)),
        ("lang = 3_20", .integer(320)),
        ("lang = 0", .integer(0)),
        ("lang = 0x140", .integer(320)),
        ("lang = 0o500", .integer(320)),
        ("lang = 0b101000000", .integer(320)),
        ("lang = true", .boolean(true)),
        ("lang = false # no", .boolean(false)),
    ])
    func eachValueFormIsRead(line: String, value: ConfigValue) {
        let (entries, problems) = ConfigReader.read(line)
        #expect(problems == [])
        #expect(entries == [ConfigEntry(key: "lang", value: value, line: 1)])
    }

    @Test func blankLinesCommentsCarriageReturnsAndAByteOrderMarkAreSkipped() {
        let text = "\u{FEFF}# settings\r\n\r\n   \n\t# indented comment\nrate = 300\r\npitch = 40"
        let (entries, problems) = ConfigReader.read(text)
        #expect(problems == [])
        #expect(entries.map(\.line) == [5, 6])
        #expect(entries.map(\.value) == [.integer(300), .integer(40)])
    }

    @Test(arguments: [
        ("rate = = 3", "rate = =: write \"text\" in quotes, a whole number, true or false; this line is ignored"),
        ("rate 320", "expected = after rate; this line is ignored"),
        ("rate =", "rate = has no value; this line is ignored"),
        ("rate = 320.5", "rate = 320.5: only whole numbers are supported; this line is ignored"),
        ("rate = 1e3", "rate = 1e3: only whole numbers are supported; this line is ignored"),
        ("rate = 0320", "rate = 0320: a number cannot start with 0; this line is ignored"),
        (
            "rate = 3__2",
            "rate = 3__2: not a number: write \"text\" in quotes, a whole number, true or false; this line is ignored"
        ),
        ("rate = 99999999999999999999", "rate = 99999999999999999999: the number is too large; this line is ignored"),
        ("rate = fast", "rate = fast: write \"text\" in quotes, a whole number, true or false; this line is ignored"),
        ("rate = 320 fast", "unexpected fast after the value of rate; this line is ignored"),
        ("lang = \"pt", "the string is not closed: add \"; this line is ignored"),
        ("lang = 'pt", "the string is not closed: add '; this line is ignored"),
        ("lang = \"p\\qt\"", "unknown escape \\q in a string; this line is ignored"),
        ("lang = \"p\\\tt\"", "unknown escape \\U+0009 in a string; this line is ignored"),
        ("lang = \"\\u12\"", "\\u needs 4 hexadecimal digits; this line is ignored"),
        ("lang = \"\\uD800\"", "\\ud800 is not a Unicode character; this line is ignored"),
        ("lang = [\"pt\"]", "lang: lists ([…]) are not supported; this line is ignored"),
        ("lang = {a = 1}", "lang: inline tables ({…}) are not supported; this line is ignored"),
        ("voice.name = \"x\"", "dotted keys such as voice.x are not supported; this line is ignored"),
        ("= 3", "unexpected = 3 where a key should be; this line is ignored"),
        ("lang = \"a\u{7}b\"", "control character U+0007 in a string; write it as an escape; this line is ignored"),
    ])
    func eachErrorNamesItsLineAndSkipsOnlyThatLine(line: String, message: String) {
        let (entries, problems) = ConfigReader.read("pitch = 40\n" + line + "\nvolume = 120\n")
        #expect(problems == [ConfigSyntaxProblem(line: 2, message: message)])
        #expect(entries.map(\.key) == ["pitch", "volume"])
    }

    @Test(arguments: [
        ("[voice]", "tables ([…]) are not part of the format: write key = value lines only"),
        ("lang = \"\"\"pt\"\"\"", "multi-line strings are not supported"),
        ("lang = '''pt'''", "multi-line strings are not supported"),
    ])
    func tablesAndMultilineStringsEndTheReading(line: String, message: String) {
        let (entries, problems) = ConfigReader.read("pitch = 40\n" + line + "\nrate = 300\n")
        #expect(problems == [ConfigSyntaxProblem(line: 2, message: message + "; the rest of the file is ignored")])
        #expect(entries.map(\.key) == ["pitch"])
    }

    @Test func aRepeatedKeyKeepsTheFirstValue() {
        let (entries, problems) = ConfigReader.read("rate = 300\nrate = 310\n")
        #expect(entries == [ConfigEntry(key: "rate", value: .integer(300), line: 1)])
        #expect(
            problems == [ConfigSyntaxProblem(line: 2, message: "rate is already set on line 1; this line is ignored")])
    }

    @Test func controlCharactersNeverReachAMessage() {
        let file = ConfigFileSettings.parse(
            "rate = \u{1B}[31m\nlang = 'pt' # \u{1B}\n\"\u{1B}]0;x\u{07}\" = 1\n", source: "f")
        #expect(file.problems.count == 3)
        #expect(file.problems.allSatisfy { !$0.description.unicodeScalars.contains { $0.value < 0x20 } })
    }

    @Test func aLongLineIsQuotedShort() {
        let (_, problems) = ConfigReader.read("rate = " + String(repeating: "9", count: 10_000) + "x")
        #expect(problems.count == 1)
        #expect(problems[0].message.count < 200)
    }

    /// Linear time is measured in `make bench`; here a large file must come out entry for entry.
    @Test func aLargeGeneratedFileIsReadEntryForEntry() {
        var text = ""
        for index in 0..<20_000 {
            text += index % 3 == 0 ? "# comment \(index)\n" : "key\(index) = \(index) # n\n"
        }
        text += "[broken"
        let (entries, problems) = ConfigReader.read(text)
        #expect(entries.count == 20_000 - 6667)
        #expect(entries.last == ConfigEntry(key: "key19999", value: .integer(19999), line: 20_000))
        #expect(problems.map(\.line) == [20_001])
    }
}
