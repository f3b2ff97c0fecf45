import OTCPromptCore
import Testing

/// Feeds `bytes` in one piece, then flushes as the caller does after its Esc delay. What an Esc held back is
/// decoded next, as the loop does when that Esc has not ended the prompt.
func decodeWhole(_ bytes: [UInt8], flush: Bool = true) -> [Key] {
    decodeInPieces([bytes], flush: flush)
}

/// Feeds `bytes` in the given pieces (flushing only at the end), each followed by what an Esc held back.
func decodeInPieces(_ pieces: [[UInt8]], flush: Bool = true) -> [Key] {
    var decoder = KeyDecoder()
    var keys: [Key] = []
    for piece in pieces {
        keys += decoder.feed(piece)
        while decoder.holdsBytesAfterEscape { keys += decoder.feed([]) }
    }
    if flush { keys += decoder.flush() }
    return mergingPasteText(keys)
}

/// Joins consecutive `.pasteText` pieces: how a paste is cut into pieces depends on the reads.
func mergingPasteText(_ keys: [Key]) -> [Key] {
    var merged: [Key] = []
    for key in keys {
        if case .pasteText(let more) = key, case .pasteText(let text)? = merged.last {
            merged[merged.count - 1] = .pasteText(text + more)
        } else {
            merged.append(key)
        }
    }
    return merged
}

func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

let esc: UInt8 = 0x1B

@Suite("KeyDecoder: single keys")
struct KeyDecoderKeyTests {
    @Test(
        "control keys",
        arguments: [
            (UInt8(0x0D), Key.submit), (0x0A, .submit), (0x7F, .backspace), (0x08, .backspace),
            (0x15, .clearField), (0x12, .readBack), (0x03, .interrupt), (0x04, .endOfInput),
            (0x14, .timeLeft), (0x0C, .redraw), (0x1A, .suspend), (0x09, .tab),
        ])
    func controlKey(byte: UInt8, key: Key) {
        var decoder = KeyDecoder()
        #expect(decoder.feed([byte]) == [key])
        #expect(!decoder.isAwaitingMoreBytes)
    }

    @Test("every other C0 control is ignored")
    func otherControls() {
        let keyBytes: Set<UInt8> = [0x03, 0x04, 0x08, 0x09, 0x0A, 0x0C, 0x0D, 0x12, 0x14, 0x15, 0x1A, 0x1B]
        for byte in UInt8(0)..<0x20 where !keyBytes.contains(byte) {
            #expect(decodeWhole([byte]) == [.ignored], "byte \(byte)")
        }
    }

    @Test("every printable ASCII byte is its character")
    func printableASCII() {
        for byte in UInt8(0x20)...0x7E {
            #expect(decodeWhole([byte]) == [.character(Character(Unicode.Scalar(byte)))])
        }
    }

    @Test("CR LF is one Enter, also across feeds; LF CR and CR CR are two")
    func carriageReturnLineFeed() {
        #expect(decodeWhole([0x0D, 0x0A]) == [.submit])
        #expect(decodeInPieces([[0x0D], [0x0A]]) == [.submit])
        #expect(decodeWhole([0x0A, 0x0D]) == [.submit, .submit])
        #expect(decodeWhole([0x0D, 0x0D]) == [.submit, .submit])
        #expect(decodeWhole([0x0D, 0x31, 0x0A]) == [.submit, .character("1"), .submit])
        #expect(decodeWhole([0x0D, 0x0A, 0x0A]) == [.submit, .submit])
    }

    @Test("multi-byte UTF-8 characters, whole and split at every byte")
    func multibyte() {
        for text in ["é", "€", "１", "😀", "ção"] {
            let expected = text.unicodeScalars.map { Key.character(Character($0)) }
            #expect(decodeWhole(bytes(text)) == expected)
            #expect(decodeInPieces(bytes(text).map { [$0] }) == expected)
        }
    }

    @Test("a UTF-8 character held mid-way waits for more bytes; flushed it is undecodable")
    func truncatedCharacterAtFlush() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0xE2, 0x82]) == [])
        #expect(decoder.isAwaitingMoreBytes)
        #expect(decoder.flush() == [.undecodable])
        #expect(!decoder.isAwaitingMoreBytes)
        #expect(decoder.feed([0x31]) == [.character("1")])
    }
}

@Suite("KeyDecoder: invalid UTF-8")
struct KeyDecoderInvalidUTF8Tests {
    @Test(
        "invalid bytes are reported as undecodable and the next key survives",
        arguments: [
            [0x80], [0xBF], [0xC0, 0xAF], [0xC1, 0xBF], [0x9B], [0xF5], [0xFF], [0xFE],
            [0xE0, 0x80, 0xAF],  // overlong
            [0xF0, 0x80, 0x80, 0xAF],  // overlong
            [0xED, 0xA0, 0x80],  // surrogate U+D800
            [0xF4, 0x90, 0x80, 0x80],  // past U+10FFFF
        ] as [[UInt8]])
    func invalidThenDigit(garbage: [UInt8]) {
        let keys = decodeWhole(garbage + [0x37])
        #expect(keys.last == .character("7"))
        #expect(keys.dropLast().allSatisfy { $0 == .undecodable })
        #expect(!keys.dropLast().isEmpty)
    }

    @Test("a valid C1 control (NEL as UTF-8) is a control, ignored, not an undecodable byte")
    func validC1IsIgnored() {
        #expect(decodeWhole([0xC2, 0x85, 0x37]) == [.ignored, .character("7")])
    }

    @Test("a truncated sequence followed by a new lead byte: the new character decodes")
    func truncatedThenNewCharacter() {
        #expect(decodeWhole([0xE2, 0x82, 0xC3, 0xA9]) == [.undecodable, .character("é")])
        #expect(decodeWhole([0xF0, 0x9F, 0x0D]) == [.undecodable, .submit])
        #expect(decodeWhole([0xC3, 0x1B, 0x5B, 0x41]) == [.undecodable, .ignored])
        #expect(decodeWhole([0xC3, 0x7F]) == [.undecodable, .backspace])
    }
}

@Suite("KeyDecoder: escape sequences")
struct KeyDecoderEscapeTests {
    @Test("a lone Esc is held until flush")
    func loneEscape() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([esc]) == [])
        #expect(decoder.isAwaitingMoreBytes)
        #expect(decoder.flush() == [.escape])
        #expect(!decoder.isAwaitingMoreBytes)
        #expect(decoder.flush() == [])
    }

    @Test(
        "whole sequences are one ignored key",
        arguments: [
            "\u{1B}[A", "\u{1B}[1;5C", "\u{1B}[15~", "\u{1B}[201~", "\u{1B}[ q",
            "\u{1B}OP", "\u{1B}OA", "\u{1B}[", "\u{1B}O", "\u{1B}\u{7F}", "\u{1B}\u{12}",
        ])
    func sequences(sequence: String) {
        #expect(decodeWhole(bytes(sequence)) == [.ignored])
        // The following key survives, whether it ends a held sequence (ESC [ then Enter) or not.
        #expect(decodeWhole(bytes(sequence + "\r")) == [.ignored, .submit])
    }

    @Test("ESC ESC: the first is a lone Esc, the second starts again")
    func doubleEscape() {
        #expect(decodeWhole([esc, esc]) == [.escape, .escape])
        #expect(decodeWhole(bytes("\u{1B}\u{1B}[A")) == [.escape, .ignored])
        var decoder = KeyDecoder()
        #expect(decoder.feed([esc, esc]) == [.escape])
        #expect(decoder.takeBytesAfterEscape() == [esc])
        #expect(decoder.feed([esc]) == [])
        #expect(decoder.isAwaitingMoreBytes)
    }

    @Test("a sequence held across feeds completes")
    func sequenceAcrossFeeds() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([esc]) == [])
        #expect(decoder.feed(bytes("[1;")) == [])
        #expect(decoder.isAwaitingMoreBytes)
        #expect(decoder.feed(bytes("5D9")) == [.ignored, .character("9")])
        #expect(!decoder.isAwaitingMoreBytes)
    }

    @Test("a truncated sequence at flush is ignored, and the next digit counts")
    func truncatedAtFlush() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(bytes("\u{1B}[12")) == [])
        #expect(decoder.flush() == [.ignored])
        #expect(decoder.feed(bytes("3")) == [.character("3")])
    }

    @Test("a byte outside the grammar abandons the sequence and is decoded itself")
    func outsideGrammar() {
        #expect(decodeWhole(bytes("\u{1B}[12\r")) == [.ignored, .submit])
        #expect(decodeWhole(bytes("\u{1B}[ 1")) == [.ignored, .character("1")])  // parameter after intermediate
        #expect(decodeWhole([esc, 0x5B, 0x31, 0xC3, 0xA9]) == [.ignored, .character("é")])
        #expect(decodeWhole(bytes("\u{1B}[1\u{1B}[B")) == [.ignored, .ignored])
        #expect(decodeWhole([esc, 0x9B, 0x34]) == [.escape, .undecodable, .character("4")])
    }

    @Test("an overlong sequence is dropped up to its final byte: its digits never become keys")
    func overlongSequence() {
        let bound = KeyDecoder.maximumSequenceLength
        let parameters = [UInt8](repeating: 0x3B, count: bound)  // ";" × bound
        #expect(decodeWhole([esc, 0x5B] + parameters + [0x41]) == [.ignored])
        #expect(decodeWhole([esc, 0x5B] + parameters + bytes("123456A7")) == [.ignored, .character("7")])
        #expect(decodeWhole([esc, 0x5B] + parameters + bytes("12"), flush: true) == [.ignored])
    }

    @Test("Esc and a character (tmux's Alt-é), in one read or with its character split, is Esc, then the character")
    func escapeThenCharacterAcrossFeeds() {
        #expect(decodeInPieces([[esc, 0xC3], [0xA9], [0x31]]) == [.escape, .character("é"), .character("1")])
        #expect(decodeWhole([esc, 0xC3, 0x31]) == [.escape, .undecodable, .character("1")])
    }
}

/// A terminal writes each key whole: an Esc read alone is the Esc key, and what comes in a later read is the next
/// key, unless it is the rest of a key a link split (`[` or `O` and its parameters).
@Suite("KeyDecoder: an Esc read alone")
struct KeyDecoderLoneEscapeTests {
    @Test(
        "a key read after an Esc read alone does not make it Alt: Esc, then that key",
        arguments: [
            ("e", [Key.escape, .character("e")]), ("echo hi\r", [.escape] + "echo hi".map(Key.character) + [.submit]),
            ("1", [.escape, .character("1")]), ("é", [.escape, .character("é")]), ("\r", [.escape, .submit]),
            ("\u{03}", [.escape, .interrupt]), ("]", [.escape, .character("]")]), ("P", [.escape, .character("P")]),
            ("\u{7F}", [.escape, .backspace]),
        ])
    func keyAfterALoneEscape(next: String, keys: [Key]) {
        var decoder = KeyDecoder()
        #expect(decoder.feed([esc]) == [])
        #expect(decoder.holdsLoneEscape)
        #expect(decoder.feed(bytes(next)) == [.escape])
        #expect(!decoder.isAwaitingMoreBytes)
        #expect(decoder.takeBytesAfterEscape() == bytes(next))
        #expect(decodeInPieces([[esc], bytes(next)]) == keys)
    }

    /// tmux's `escape-time` (500 ms by default) writes an Esc and the key typed within it as one Alt key, and so
    /// may a link: Alt plus a printable key means nothing in a code or a secret, so it is the Esc that cancels, and
    /// the decoder stops there. The key and what follows are held undecoded, for the shell once the prompt ends.
    @Test(
        "in one read, Esc and a printable key are Esc, with that key and the rest held back undecoded",
        arguments: [
            ("\u{1B}e", "e"), ("\u{1B}echo hi\r", "echo hi\r"), ("\u{1B}1", "1"), ("\u{1B}9", "9"),
            ("\u{1B}é", "é"), ("\u{1B} x", " x"), ("\u{1B}\u{1B}[A", "\u{1B}[A"), ("\u{1B}~", "~"),
        ])
    func escapeAndAPrintableKeyInOneRead(sequence: String, held: String) {
        var decoder = KeyDecoder()
        #expect(decoder.feed(bytes(sequence)) == [.escape])
        #expect(decoder.holdsBytesAfterEscape)
        #expect(!decoder.isAwaitingMoreBytes)
        #expect(decoder.takeBytesAfterEscape() == bytes(held))
        #expect(!decoder.holdsBytesAfterEscape)
    }

    @Test("what an Esc held back is decoded by the next feed, before that feed's own bytes")
    func heldBytesComeFirst() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(bytes("1\u{1B}23")) == [.character("1"), .escape])
        #expect(decoder.feed(bytes("4")) == [.character("2"), .character("3"), .character("4")])
        #expect(!decoder.holdsBytesAfterEscape)
    }

    @Test("the Esc kitty's protocol reports, CSI 27 u, also holds back what follows it")
    func kittysEscapeHoldsTheRest() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(bytes("\u{1B}[27uls\r")) == [.escape])
        #expect(decoder.takeBytesAfterEscape() == bytes("ls\r"))
    }

    @Test(
        "in one read, Esc and a control key are Alt plus that key: ignored, never a cancel",
        arguments: ["\u{1B}\r", "\u{1B}\u{7F}", "\u{1B}\u{03}", "\u{1B}\t"])
    func altControlKeyInOneRead(sequence: String) {
        #expect(decodeWhole(bytes(sequence)) == [.ignored])
    }

    @Test("Esc inside a bracketed paste is text: it neither cancels nor holds anything back")
    func escapeInsideAPaste() {
        var decoder = KeyDecoder()
        let keys = decoder.feed(bytes("\u{1B}[200~a\u{1B}b\u{1B}[201~c"))
        #expect(keys == [.pasteBegan, .pasteText("a\u{1B}b"), .pasteEnded, .character("c")])
        #expect(!decoder.holdsBytesAfterEscape)
    }

    @Test(
        "the rest of an arrow, Home, End or function key read after its Esc completes the key",
        arguments: ["[A", "[1;5C", "[H", "[F", "OH", "OP", "[15~", "[24~"])
    func restOfAKeyAfterItsEsc(rest: String) {
        #expect(decodeInPieces([[esc], bytes(rest)]) == [.ignored])
        #expect(decodeInPieces([[esc], bytes(String(rest.prefix(1))), bytes(String(rest.dropFirst()))]) == [.ignored])
    }

    @Test("Esc Esc is Esc at once, whether in one read or two")
    func escapeEscape() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([esc, esc]) == [.escape])
        var apart = KeyDecoder()
        #expect(apart.feed([esc]) == [])
        #expect(apart.feed([esc]) == [.escape])
    }

    @Test("only the read right after the Esc is apart from it: ESC then ESC Backspace is Esc, then Alt-Backspace")
    func onlyTheNextRead() {
        #expect(decodeInPieces([[esc], bytes("\u{1B}\u{7F}")]) == [.escape, .ignored])
        var flushed = KeyDecoder()
        _ = flushed.feed([esc])
        #expect(flushed.flush() == [.escape])
        #expect(flushed.feed(bytes("\u{1B}\u{7F}")) == [.ignored])
    }
}

@Suite("KeyDecoder: bracketed paste")
struct KeyDecoderPasteTests {
    let begin = bytes("\u{1B}[200~")
    let end = bytes("\u{1B}[201~")

    @Test("a paste is began, text, ended; keys after it decode normally")
    func simplePaste() {
        let keys = decodeWhole(begin + bytes("123 456") + end + bytes("7"))
        #expect(keys == [.pasteBegan, .pasteText("123 456"), .pasteEnded, .character("7")])
    }

    @Test("an empty paste")
    func emptyPaste() {
        #expect(decodeWhole(begin + end) == [.pasteBegan, .pasteEnded])
    }

    @Test("the markers split at every position give the same keys")
    func markersSplitEverywhere() {
        let stream = bytes("1") + begin + bytes("ab\u{1B}[20x\u{1B}") + end + bytes("2")
        let whole = decodeWhole(stream)
        #expect(
            whole == [.character("1"), .pasteBegan, .pasteText("ab\u{1B}[20x\u{1B}"), .pasteEnded, .character("2")])
        for cut in 0...stream.count {
            #expect(decodeInPieces([Array(stream[..<cut]), Array(stream[cut...])]) == whole, "cut \(cut)")
        }
        #expect(decodeInPieces(stream.map { [$0] }) == whole)
    }

    @Test("control characters and escape bytes in a paste are text; keys inside do nothing")
    func controlsInPaste() {
        let content = bytes("1\r\n2\u{03}\u{1B}[A\u{1B}[201\u{7F}\t")
        let keys = decodeWhole(begin + content + end)
        #expect(keys == [.pasteBegan, .pasteText(String(decoding: content, as: UTF8.self)), .pasteEnded])
    }

    @Test("invalid UTF-8 inside a paste is left out and reported once after it; a character cut by the end marker too")
    func invalidUTF8InPaste() {
        let keys = decodeWhole(begin + [0x31, 0xFF, 0xC3, 0xA9, 0xE2, 0x82, 0x32, 0xC3] + end)
        #expect(keys == [.pasteBegan, .pasteText("1é2"), .pasteEnded, .undecodable])
        #expect(
            decodeWhole(begin + [0x31, 0x32, 0xC3] + end) == [.pasteBegan, .pasteText("12"), .pasteEnded, .undecodable])
        #expect(decodeWhole(begin + [0x31, 0xC3, 0xA9] + end) == [.pasteBegan, .pasteText("1é"), .pasteEnded])
    }

    @Test("a multi-byte character split across feeds inside a paste")
    func splitCharacterInPaste() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(begin + [0x31, 0xE2]) == [.pasteBegan, .pasteText("1")])
        #expect(decoder.feed([0x82, 0xAC] + end) == [.pasteText("€"), .pasteEnded])
    }

    @Test("flush inside a paste neither ends it nor loses a held marker prefix")
    func flushInPaste() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(begin + bytes("12\u{1B}[20")) == [.pasteBegan, .pasteText("12")])
        #expect(!decoder.isAwaitingMoreBytes)
        #expect(decoder.flush() == [])
        #expect(decoder.feed(bytes("1~3")) == [.pasteEnded, .character("3")])
    }

    @Test("endPaste closes a paste whose end marker never came, keeping a held marker prefix as text")
    func endPasteByCaller() {
        var decoder = KeyDecoder()
        #expect(decoder.endPaste() == [])
        #expect(decoder.feed(begin + bytes("12\u{1B}[2")) == [.pasteBegan, .pasteText("12")])
        #expect(decoder.isInsidePaste)
        #expect(decoder.endPaste() == [.pasteText("\u{1B}[2"), .pasteEnded])
        #expect(!decoder.isInsidePaste)
        #expect(decoder.feed(bytes("01~5")) == [.character("0"), .character("1"), .character("~"), .character("5")])
    }

    @Test("each feed emits its text: a large paste is never held whole")
    func streaming() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(begin) == [.pasteBegan])
        let chunk = [UInt8](repeating: 0x35, count: 4096)
        for _ in 0..<100 {
            #expect(decoder.feed(chunk) == [.pasteText(String(repeating: "5", count: 4096))])
        }
        #expect(decoder.feed(end) == [.pasteEnded])
    }

    @Test("a nested start marker is text; a stray end marker outside a paste is ignored")
    func nestedAndStrayMarkers() {
        #expect(decodeWhole(begin + begin + end) == [.pasteBegan, .pasteText("\u{1B}[200~"), .pasteEnded])
        #expect(decodeWhole(end + bytes("1")) == [.ignored, .character("1")])
    }
}

@Suite("KeyDecoder: splitting")
struct KeyDecoderSplitTests {
    static let streams: [[UInt8]] = [
        bytes("98\u{7F}5\u{1B}[A\u{1B}OP\u{1B}x\r\n3\u{15}\u{12}é😀\u{1B}\u{1B}[1;5C"),
        [0x31, 0xFF, 0xE2, 0x82, 0xC3, 0xA9, 0xED, 0xA0, 0x80, 0x32, 0xC0, 0xAF, 0x0D, 0x0A],
        bytes("\u{1B}[200~G-123 456\r\n\u{1B}[201~\u{1B}[200~x\u{1B}[201~4"),
    ]

    /// Every cut but one: a read that ends with a lone Esc (`cutOnlyAfterLoneEscapes`).
    @Test("one byte at a time and every 2-way split equal the whole feed cut only after a lone Esc", arguments: streams)
    func everySplit(stream: [UInt8]) {
        let bytes = stream.map { [$0] }
        #expect(decodeInPieces(bytes) == decodeInPieces(cutOnlyAfterLoneEscapes(bytes)))
        for cut in 0...stream.count {
            let pieces = [Array(stream[..<cut]), Array(stream[cut...])]
            #expect(decodeInPieces(pieces) == decodeInPieces(cutOnlyAfterLoneEscapes(pieces)), "cut \(cut)")
            if stream[..<cut].last != 0x1B { #expect(decodeInPieces(pieces) == decodeWhole(stream), "cut \(cut)") }
        }
    }

    @Test("the first stream decodes to the expected keys")
    func expectedKeys() {
        #expect(
            decodeWhole(Self.streams[0]) == [
                .character("9"), .character("8"), .backspace, .character("5"), .ignored, .ignored, .escape,
                .character("x"), .submit, .character("3"), .clearField, .readBack, .character("é"), .character("😀"),
                .escape,
                .ignored,
            ])
    }
}
