import Testing

@testable import OTCPromptCore

/// Only keys are keys. A terminal's replies and other programs' key protocols never put
/// digits into the field, and never swallow Esc or Ctrl-C.
@Suite struct KeyDecoderRepliesTests {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Replies as terminals send them; every split of each must decode to nothing but ignored keys, but one: a
    /// string's ESC read alone, its rest after it, is the Esc key, as a person's Esc and their next key are.
    /// Holding it as the start of a string instead kept open a prompt the user had cancelled.
    static let replies: [String] = [
        "\u{1B}]11;rgb:1234/5678/9abc\u{1B}\\",  // OSC 11 background colour, ST
        "\u{1B}]11;rgb:1234/5678/9abc\u{07}",  // the same, BEL
        "\u{1B}P1$r0;1;4m\u{1B}\\",  // DCS DECRQSS reply
        "\u{1B}P>|XTerm(379)\u{1B}\\",  // DCS XTVERSION
        "\u{1B}_Gi=31;OK\u{1B}\\",  // APC kitty graphics reply
        "\u{1B}^private 123\u{1B}\\",  // PM
        "\u{1B}Xstring 456\u{1B}\\",  // SOS
        "\u{1B}[?62;22;52c",  // CSI DA1 reply
        "\u{1B}[>1;10;0c",  // CSI DA2 reply
        "\u{1B}[24;80R",  // cursor position report
        "\u{9D}11;rgb:1111/2222/3333\u{07}",  // OSC as a UTF-8 C1 control
        "\u{9B}123;456R",  // CSI as a UTF-8 C1 control
        "\u{1B}[" + String(repeating: "1;", count: 40) + "5m",  // a CSI past the 32-byte bound
    ]

    @Test(arguments: replies)
    func aReplyIsNeverAKey(reply: String) {
        let keys = decodeWhole(bytes(reply))
        #expect(!keys.isEmpty && keys.allSatisfy { $0 == .ignored || $0 == .terminalReport }, "\(keys)")
        for split in 1..<bytes(reply).count {
            let all = bytes(reply)
            let pieces = decodeInPieces([Array(all[..<split]), Array(all[split...])])
            if split == 1 && all.first == 0x1B && all[1] != UInt8(ascii: "[") {
                #expect(pieces.first == .escape, "\(pieces)")
                continue
            }
            #expect(pieces.allSatisfy { $0 == .ignored || $0 == .terminalReport }, "split at \(split): \(pieces)")
        }
    }

    @Test(arguments: replies)
    func aKeyAfterAReplyStillCounts(reply: String) {
        #expect(decodeWhole(bytes(reply + "7")).last == .character("7"))
        #expect(decodeWhole(bytes(reply + "\u{3}")).last == .interrupt)
    }

    @Test func anUnterminatedStringEndsAtTheFlushAndAnEscapeStartsANewSequence() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(bytes("\u{1B}]11;rgb:12")) == [])
        #expect(decoder.isAwaitingMoreBytes)
        #expect(decoder.flush() == [.terminalReport])
        #expect(decoder.feed(bytes("5")) == [.character("5")])
        #expect(decodeWhole(bytes("\u{1B}]0;title\u{1B}[A9")) == [.terminalReport, .ignored, .character("9")])
        #expect(decodeWhole(bytes("\u{1B}]0;ti\u{18}9")) == [.terminalReport, .character("9")], "CAN aborts it")
    }

    @Test(arguments: [
        ("\u{1B}[27u", Key.escape), ("\u{1B}[99;5u", .interrupt), ("\u{1B}[100;5u", .endOfInput),
        ("\u{1B}[13u", .submit), ("\u{1B}[127u", .backspace), ("\u{1B}[117;5u", .clearField),
        ("\u{1B}[114;5u", .readBack), ("\u{1B}[57u", .character("9")), ("\u{1B}[97;2u", .character("A")),
        ("\u{1B}[99;69u", .interrupt),  // Ctrl with Caps Lock
        ("\u{1B}[99:67;5:1u", .interrupt),  // alternate keys and a press event
        ("\u{1B}[27;5;99~", .interrupt),  // xterm modifyOtherKeys
        ("\u{1B}[27;1;27~", .escape),
    ])
    func kittyAndModifyOtherKeysAreDecodedAsTheKeysTheyAre(sequence: String, key: Key) {
        #expect(decodeWhole(bytes(sequence)) == [key])
    }

    /// Shift+ß (kitty's CSI 223;2u): its upper case is two letters ("SS"), so the key is the one character it is.
    @Test func aShiftedKeyWhoseUpperCaseIsTwoLettersIsStillOneCharacter() {
        let keys = decodeWhole(bytes("\u{1B}[223;2u"))
        #expect(keys == [.character("ß")])
        if case .character(let character) = keys.first { #expect(character.unicodeScalars.count == 1) }
    }

    @Test(arguments: ["\u{1B}[99;3u", "\u{1B}[99;9u", "\u{1B}[57441u", "\u{1B}[1;5A"])
    func otherModifiedKeysAreIgnored(sequence: String) {
        #expect(decodeWhole(bytes(sequence)) == [.ignored])
    }

    /// Within the type-ahead grace a key begins a leftover line and a report does not: they differ.
    @Test func reportsAreToldApartFromKeysThatTypeNothing() {
        for report in [
            "\u{1B}[I", "\u{1B}[O", "\u{1B}[?62;22;52c", "\u{1B}[>1;10;0c", "\u{1B}[24;80R",
            "\u{1B}]11;rgb:1/2/3\u{07}",
        ] {
            #expect(decodeWhole(bytes(report)) == [.terminalReport], "\(report.debugDescription)")
        }
        for key in ["\u{1B}[A", "\u{1B}OP", "\u{1B}[15~", "\u{1B}\u{7F}"] {
            #expect(decodeWhole(bytes(key)) == [.ignored], "\(key.debugDescription)")
        }
    }
}
