import Testing

@testable import OTCPromptCore

/// A Latin-1 terminal's bytes are read and written as Latin-1; other charsets
/// are refused, never guessed.
@Suite struct TerminalEncodingTests {
    @Test(
        arguments: [
            ("UTF-8", TerminalEncoding.utf8), ("utf8", .utf8), ("ANSI_X3.4-1968", .utf8), ("", .utf8),
            ("ISO-8859-1", .latin1), ("iso88591", .latin1), ("ISO8859-1", .latin1),
            ("ISO-8859-15", .latin9), ("iso885915", .latin9),
        ] as [(String, TerminalEncoding)])
    func aCodesetNamesItsEncodingHoweverSpelled(codeset: String, encoding: TerminalEncoding) {
        #expect(TerminalEncoding(codeset: codeset) == encoding)
    }

    @Test(arguments: ["KOI8-R", "ISO-8859-5", "EUC-JP", "GB18030", "BIG5", "CP1252"])
    func anyOtherCodesetIsRefused(codeset: String) {
        #expect(TerminalEncoding(codeset: codeset) == nil)
    }

    @Test func theLocaleNameSpellsItsCodeset() {
        #expect(TerminalEncoding.codeset(inLocaleName: "pt_BR.ISO-8859-1") == "ISO-8859-1")
        #expect(TerminalEncoding.codeset(inLocaleName: "pt_PT.ISO-8859-15@euro") == "ISO-8859-15")
        #expect(TerminalEncoding.codeset(inLocaleName: "pt_BR") == "")
    }

    @Test func aTypedLatin1ByteIsTheSameCharacterInUTF8() {
        var decoder = KeyDecoder()
        let keys = decoder.feed(TerminalEncoding.latin1.decode([0x63, 0x61, 0x66, 0xE9]))
        #expect(keys == [.character("c"), .character("a"), .character("f"), .character("é")])
    }

    @Test func everyLatin1ByteRoundTrips() {
        for encoding in [TerminalEncoding.latin1, .latin9] {
            let bytes = (0...255).map(UInt8.init)
            let text = String(decoding: encoding.decode(bytes), as: UTF8.self)
            #expect(encoding.encode(text) == bytes)
            #expect(encoding.canEncode(text))
        }
    }

    @Test func portugueseWordsAreWrittenAsLatin1NotUTF8() {
        #expect(TerminalEncoding.latin1.encode("Código: ") == [0x43, 0xF3, 0x64, 0x69, 0x67, 0x6F, 0x3A, 0x20])
        #expect(TerminalEncoding.latin9.encode("€") == [0xA4])
    }

    @Test func whatCannotBeShownIsAQuestionMarkAndSaysSo() {
        #expect(TerminalEncoding.latin1.encode("▕•▏€") == Array("????".utf8))
        #expect(!TerminalEncoding.latin1.canEncode("€"))
        #expect(!TerminalEncoding.latin9.canEncode("¤"))
        #expect(TerminalEncoding.utf8.encode("€") == Array("€".utf8))
    }
}
