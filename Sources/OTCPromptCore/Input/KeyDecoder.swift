/// Turns raw terminal bytes into `Key`s. Pure and incremental: bytes may arrive split across
/// reads at any point (inside a UTF-8 character, an escape sequence or a paste marker), and the
/// keys are the same however the bytes were split (only the sizes of `.pasteText` pieces differ),
/// but for one cut: an Esc that ends a read followed by a control byte or the start of a terminal's string
/// (`]`, `P`, `_`, `^`, `X`). In one read those are Alt plus that key (ignored) or the terminal's reply; read
/// apart, Esc and then that key.
///
/// Esc followed by a printable key is Esc, however the bytes were split: tmux (whose `escape-time` joins an Esc
/// and the key typed within it into one Alt key) and a link write them together, and Alt plus a letter means
/// nothing in a code or a secret. Decoding stops after every Esc: what follows it is held undecoded
/// (`takeBytesAfterEscape()`), for the next program when that Esc ends the prompt, decoded next otherwise.
///
/// Garbage never costs a later key: a broken sequence becomes `.ignored`, an invalid UTF-8 byte
/// `.undecodable`, and decoding starts again on the byte that broke it; after `flush()` the decoder is back at rest
/// (unless a paste is open, which only its end marker closes).
public struct KeyDecoder: Sendable {
    /// The longest parameter-and-intermediate part of an escape sequence that is still waited for.
    public static let maximumSequenceLength = 32

    /// What the bytes held so far have started.
    enum Pending: Equatable, Sendable {
        case nothing
        /// ESC, not yet known to be alone.
        case escape
        /// ESC [ (CSI) or ESC O (SS3) and its parameters so far, in `sequenceBody`.
        case sequence(introducer: UInt8)
        /// Inside an OSC, DCS, APC, PM or SOS string (a terminal's reply: a colour, a version), consumed up
        /// to BEL or ST; `sawEscape`: the last byte was ESC, which may begin ST (ESC \).
        case controlString(sawEscape: Bool)
    }

    var pending = Pending.nothing
    var sequenceBody: [UInt8] = []
    var sequenceHasIntermediate = false
    /// The sequence outgrew `maximumSequenceLength`: the rest is dropped up to its final byte.
    var sequenceOverflowed = false
    var scalar = UTF8ScalarAssembler()
    /// A CR was the last byte: an LF right after it is the same Enter.
    var lineFeedEndsEnter = false
    /// The last read ended with a lone Esc held: its next byte came in a read of its own.
    var escapeEndedRead = false
    /// What came after an Esc key in the bytes fed, not yet decoded (`takeBytesAfterEscape()`).
    var bytesAfterEscape: [UInt8] = []
    /// The terminal answered the question about kitty's keyboard protocol (`KeyboardProtocol`): it has it.
    public internal(set) var heardKeyboardProtocol = false
    /// The terminal answered the request for its primary device attributes: every answer before it is in.
    public internal(set) var heardDeviceAttributes = false

    var isPasting = false
    /// How many bytes of the end marker ESC [ 2 0 1 ~ the last paste bytes matched (held back).
    var endMarkerMatched = 0
    /// Paste text decoded from the current feed, not yet emitted.
    var pasteBytes: [UInt8] = []
    /// Bytes of the current paste were not UTF-8: `.undecodable` follows its `.pasteEnded`.
    var pasteDroppedBytes = false

    public init() {}

    /// Decodes `bytes`, returning every key they complete. Bytes that may begin a longer
    /// sequence are held until the next call.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Key] {
        if !bytesAfterEscape.isEmpty { return feed(takeBytesAfterEscape() + Array(bytes)) }
        if let keys = bytes.withContiguousStorageIfAvailable({ decode($0) }) { return keys }
        return Array(bytes).withUnsafeBufferPointer { decode($0) }
    }

    /// True while a lone Esc, an escape sequence or a UTF-8 character that is not yet complete
    /// is held. The caller waits the Esc delay for more bytes and calls `flush()` if none arrive.
    /// False inside a paste: a paste only ends with its end marker.
    public var isAwaitingMoreBytes: Bool {
        !isPasting && (pending != .nothing || scalar.isAssembling)
    }

    /// True while bytes that came after an Esc key are held undecoded: the loop decodes them next if that Esc did
    /// not end the prompt, and gives them back to the terminal if it did.
    public var holdsBytesAfterEscape: Bool { !bytesAfterEscape.isEmpty }

    /// The bytes that came after the last Esc key, undecoded, and forgets them: the next program's once that Esc
    /// has ended the prompt (the key typed after it, and everything after that, as typed).
    public mutating func takeBytesAfterEscape() -> [UInt8] {
        defer { bytesAfterEscape = [] }
        return bytesAfterEscape
    }

    /// True while what is held is an Esc alone, not yet the start of a sequence: the one key a
    /// lone-Esc wait decides.
    public var holdsLoneEscape: Bool { !isPasting && pending == .escape }

    /// Gives up waiting: a held lone Esc becomes `.escape`, a truncated sequence `.ignored`, a
    /// truncated character `.undecodable`. Inside a paste it does nothing: the paste continues.
    public mutating func flush() -> [Key] {
        lineFeedEndsEnter = false
        escapeEndedRead = false
        guard !isPasting else { return [] }
        defer {
            pending = .nothing
            scalar.reset()
        }
        switch pending {
        case .escape: return [.escape]
        case .sequence: return [.ignored]
        case .controlString: return [.terminalReport]
        case .nothing: return scalar.isAssembling ? [.undecodable] : []
        }
    }

    private mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            if isPasting {
                index = decodePaste(bytes, from: index, into: &keys)
            } else {
                let decodedBefore = keys.count
                if decodeKeyByte(bytes[index], into: &keys) { index += 1 }
                if keys[decodedBefore...].contains(.escape) {
                    bytesAfterEscape = Array(bytes[index...])
                    break
                }
            }
        }
        emitPasteText(into: &keys)
        escapeEndedRead = holdsLoneEscape
        return keys
    }

    /// Decodes one byte outside a paste. Returns false when the byte broke a held sequence and
    /// must be decoded again from rest (the sequence was emitted as `.ignored` or `.escape`).
    private mutating func decodeKeyByte(_ byte: UInt8, into keys: inout [Key]) -> Bool {
        let followsCarriageReturn = lineFeedEndsEnter
        lineFeedEndsEnter = false
        let escapeCameAlone = escapeEndedRead
        escapeEndedRead = false
        switch pending {
        case .escape: return decodeAfterEscape(byte, escapeCameAlone: escapeCameAlone, into: &keys)
        case .sequence(let introducer): return decodeSequence(byte, introducer: introducer, into: &keys)
        case .controlString(let sawEscape): return decodeControlString(byte, sawEscape: sawEscape, into: &keys)
        case .nothing: break
        }
        if scalar.isAssembling || byte >= 0x80 {
            return decodeNonASCII(byte, into: &keys)
        }
        switch byte {
        case 0x1B: pending = .escape
        case 0x0D:
            keys.append(.submit)
            lineFeedEndsEnter = true
        case 0x0A:
            if !followsCarriageReturn { keys.append(.submit) }
        case 0x7F, 0x08: keys.append(.backspace)
        case 0x15: keys.append(.clearField)
        case 0x12: keys.append(.readBack)
        case 0x03: keys.append(.interrupt)
        case 0x04: keys.append(.endOfInput)
        case 0x14: keys.append(.timeLeft)
        case 0x0C: keys.append(.redraw)
        case 0x1A: keys.append(.suspend)
        case 0x09: keys.append(.tab)
        case 0x00..<0x20: keys.append(.ignored)
        default: keys.append(.character(Character(Unicode.Scalar(byte))))
        }
        return true
    }

    private mutating func decodeNonASCII(_ byte: UInt8, into keys: inout [Key]) -> Bool {
        switch scalar.consume(byte) {
        case .needsMore: return true
        case .scalar(let value):
            // A C1 control sent as UTF-8 starts the same sequence or string as its 7-bit form.
            switch value.value {
            case 0x9B: startSequence(introducer: UInt8(ascii: "["))
            case 0x90, 0x98, 0x9D, 0x9E, 0x9F: pending = .controlString(sawEscape: false)
            case 0x80...0x9F: keys.append(.ignored)
            default: keys.append(.character(Character(value)))
            }
            return true
        case .invalid:
            keys.append(.undecodable)
            return true
        case .truncatedBeforeByte:
            keys.append(.undecodable)
            return false
        }
    }
}
