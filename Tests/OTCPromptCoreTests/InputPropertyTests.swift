import OTCPromptCore
import OTCPromptTestSupport
import Testing

/// Byte streams biased towards what breaks decoders: sequence fragments, paste markers,
/// UTF-8 leads and continuations, controls, and plain random bytes.
func randomStream(count: Int, using random: inout SeededRandom, allowingEscape: Bool = true) -> [UInt8] {
    let fragments: [[UInt8]] = [
        Array("\u{1B}[200~".utf8), Array("\u{1B}[201~".utf8), Array("\u{1B}[".utf8), Array("\u{1B}O".utf8),
        [0x1B], Array("[201".utf8), Array("1;5".utf8), [0x0D, 0x0A], [0xE2, 0x82, 0xAC], [0xC3], [0x82],
        [0xF0, 0x9F], [0xED, 0xA0, 0x80], [0x9B], Array("123 456".utf8), [0x7F], [0x03], [0x00],
    ]
    var stream: [UInt8] = []
    while stream.count < count {
        if Bool.random(using: &random) {
            stream += fragments.randomElement(using: &random)!
        } else {
            stream.append(UInt8.random(in: 0...255, using: &random))
        }
    }
    return allowingEscape ? stream : stream.filter { $0 != 0x1B }
}

/// Cuts `stream` into random pieces, empty ones included.
func randomPieces(of stream: [UInt8], using random: inout SeededRandom) -> [[UInt8]] {
    var pieces: [[UInt8]] = []
    var start = 0
    while start < stream.count {
        let end = min(stream.count, start + Int.random(in: 0...9, using: &random))
        pieces.append(Array(stream[start..<end]))
        start = end
    }
    return pieces
}

/// The bytes of `pieces` cut again, only where a read of `pieces` ended with a lone Esc held.
func cutOnlyAfterLoneEscapes(_ pieces: [[UInt8]]) -> [[UInt8]] {
    var decoder = KeyDecoder()
    var cuts: [[UInt8]] = [[]]
    for piece in pieces {
        _ = decoder.feed(piece)
        while decoder.holdsBytesAfterEscape { _ = decoder.feed([]) }  // as the loop goes on after an Esc
        cuts[cuts.count - 1] += piece
        if decoder.holdsLoneEscape { cuts.append([]) }
    }
    return cuts
}

/// Complete keys as a terminal sends them, with the keys a fresh decoder makes of them.
let completeKeys: [(bytes: [UInt8], keys: [Key])] = [
    (Array("7".utf8), [.character("7")]), (Array("é".utf8), [.character("é")]),
    (Array("😀".utf8), [.character("😀")]), ([0x0D], [.submit]), ([0x7F], [.backspace]), ([0x08], [.backspace]),
    ([0x15], [.clearField]), ([0x12], [.readBack]), ([0x03], [.interrupt]), ([0x04], [.endOfInput]),
    ([0x00], [.ignored]), (Array("\u{1B}[A".utf8), [.ignored]), (Array("\u{1B}OP".utf8), [.ignored]),
    (Array("\u{1B}[200~1\u{1B}[201~".utf8), [.pasteBegan, .pasteText("1"), .pasteEnded]),
]

@Suite("Input properties")
struct InputPropertyTests {
    /// The one cut that matters is a read that ends with a lone Esc (`KeyDecoder`): the same stream cut there and
    /// nowhere else decodes to the same keys as cut anywhere.
    @Test("any byte stream decodes to the same keys however it is cut into reads, but after a lone Esc")
    func chunkingDoesNotMatter() {
        var random = SeededRandom(seed: 0x5EED_0001)
        var cutAfterLoneEscape = 0
        for _ in 0..<2000 {
            let stream = randomStream(count: Int.random(in: 0...80, using: &random), using: &random)
            let pieces = randomPieces(of: stream, using: &random)
            let reference = cutOnlyAfterLoneEscapes(pieces)
            if reference.count > 1 { cutAfterLoneEscape += 1 }
            #expect(decodeInPieces(pieces) == decodeInPieces(reference), "stream \(stream) pieces \(pieces)")
        }
        #expect(cutAfterLoneEscape > 100)
    }

    /// Garbage without ESC leaves at most a partial UTF-8 character or a CR held, and the first
    /// byte of any complete key other than a bare LF ends both: so a key right after such
    /// garbage, in the same read, decodes exactly as it would alone.
    @Test("a complete key right after garbage without ESC is never lost")
    func keyAfterGarbageWithoutEscape() {
        var random = SeededRandom(seed: 0x5EED_0002)
        for _ in 0..<3000 {
            let garbage = randomStream(
                count: Int.random(in: 0...40, using: &random), using: &random, allowingEscape: false)
            let key = completeKeys.randomElement(using: &random)!
            let keys = decodeWhole(garbage + key.bytes, flush: false)
            #expect(Array(keys.suffix(key.keys.count)) == key.keys, "garbage \(garbage) key \(key.bytes)")
        }
    }

    /// Garbage with ESC may leave a sequence held (an arrow's parameters look like digits), so
    /// the guarantee is the caller's: after the Esc-delay flush that a held sequence asks for,
    /// the decoder is at rest and the next key decodes exactly as it would alone. Only an
    /// unterminated paste start keeps the decoder busy (by design: a paste ends with its marker).
    @Test("after garbage and the Esc-delay flush, the next key is never lost")
    func keyAfterGarbageAndFlush() {
        var random = SeededRandom(seed: 0x5EED_0003)
        let pasteStart = Array("\u{1B}[200~".utf8)
        var tried = 0
        for _ in 0..<3000 {
            let garbage = randomStream(count: Int.random(in: 0...40, using: &random), using: &random)
            if contains(garbage, pasteStart) { continue }
            tried += 1
            var decoder = KeyDecoder()
            _ = decoder.feed(garbage)
            while decoder.holdsBytesAfterEscape { _ = decoder.feed([]) }  // as the loop goes on after an Esc
            if decoder.isAwaitingMoreBytes { _ = decoder.flush() }
            #expect(!decoder.isAwaitingMoreBytes)
            let key = completeKeys.randomElement(using: &random)!
            #expect(mergingPasteText(decoder.feed(key.bytes)) == key.keys, "garbage \(garbage) key \(key.bytes)")
        }
        #expect(tried > 1000)
    }

    @Test("the paste scanner stays within its window and gives well-formed verdicts on random Unicode")
    func scannerBoundsAndVerdicts() {
        var random = SeededRandom(seed: 0x5EED_0004)
        let alphabet: [Unicode.Scalar] =
            Array("0123456789abcXYZ -.\t\n:#,".unicodeScalars) + [
                "\u{00A0}", "\u{3000}", "\u{2013}", "\u{FF11}", "\u{FF21}", "\u{FF0E}", "\u{1B}", "\u{0301}", "é", "😀",
            ]
        for _ in 0..<1500 {
            let length = Int.random(in: 1...12, using: &random)
            let charset = CodeCharset.allCases.randomElement(using: &random)!
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...120, using: &random) {
                if Int.random(in: 0..<8, using: &random) == 0 {
                    let any = UInt32.random(in: 0...0x10FFFF, using: &random)
                    scalars.append(Unicode.Scalar(any) ?? "\u{FFFD}")
                } else {
                    scalars.append(alphabet.randomElement(using: &random)!)
                }
            }
            let text = String(scalars)
            var scanner = PasteScanner(charset: charset, length: length)
            var start = text.unicodeScalars.startIndex
            while start < text.unicodeScalars.endIndex {
                let end =
                    text.unicodeScalars.index(
                        start, offsetBy: Int.random(in: 1...7, using: &random), limitedBy: text.unicodeScalars.endIndex)
                    ?? text.unicodeScalars.endIndex
                scanner.scan(String(text.unicodeScalars[start..<end]))
                #expect(scanner.retainedCharacterCount <= 5 * length)
                start = end
            }
            let verdict = scanner.result
            #expect(verdict == PasteScanner.scan(text, charset: charset, length: length))
            switch verdict {
            case .characters(let characters):
                #expect(!characters.isEmpty && characters.count <= length)
                #expect(characters.allSatisfy { charset.accept($0) == $0 }, "\(text)")
            case .extracted(let characters):
                #expect(characters.count == length)
                #expect(characters.allSatisfy { charset.accept($0) == $0 }, "\(text)")
            case .rejected:
                break
            }
        }
    }

    @Test("decoded random streams fed to a scanner: paste text is all the scanner ever holds, bounded")
    func decoderIntoScanner() {
        var random = SeededRandom(seed: 0x5EED_0005)
        for _ in 0..<500 {
            let stream = randomStream(count: 200, using: &random)
            var decoder = KeyDecoder()
            var scanner = PasteScanner(charset: .digits, length: 6)
            for piece in randomPieces(of: stream, using: &random) {
                for key in decoder.feed(piece) {
                    switch key {
                    case .pasteBegan: scanner = PasteScanner(charset: .digits, length: 6)
                    case .pasteText(let text): scanner.scan(text)
                    case .character(let character):
                        #expect(!character.unicodeScalars.first!.properties.generalCategory.isControlCharacter)
                    default: break
                    }
                    #expect(scanner.retainedCharacterCount <= 30)
                }
            }
        }
    }
}

private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard haystack.count >= needle.count else { return false }
    return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<($0 + needle.count)]) == needle }
}

extension Unicode.GeneralCategory {
    fileprivate var isControlCharacter: Bool { self == .control }
}
