/// Escape sequences: lone Esc, CSI (ESC [), SS3 (ESC O), Alt plus a key, and the paste start.
extension KeyDecoder {
    /// The parameters of ESC [ 2 0 0 ~, the start of a bracketed paste.
    private static let pasteStartParameters: [UInt8] = Array("200".utf8)

    /// The byte after ESC.
    mutating func decodeAfterEscape(_ byte: UInt8, into keys: inout [Key]) -> Bool {
        switch byte {
        case 0x1B:
            keys.append(.escape)  // the first Esc was alone; the second one may start a sequence
        case UInt8(ascii: "["), UInt8(ascii: "O"):
            sequenceBody.removeAll(keepingCapacity: true)
            sequenceHasIntermediate = false
            pending = .sequence(introducer: byte)
        case 0x00...0x7F:
            keys.append(.ignored)  // Alt plus a printable key, Alt-Backspace or Alt-Ctrl-key
            pending = .nothing
        case 0xC2...0xF4:
            _ = scalar.consume(byte)
            pending = .altCharacter
        default:
            keys.append(.escape)  // an invalid byte cannot be part of an Alt key: Esc was alone
            pending = .nothing
            return false
        }
        return true
    }

    /// A byte inside ESC [ … or ESC O …: parameters 0x30–0x3F, then intermediates 0x20–0x2F,
    /// then one final byte 0x40–0x7E. Anything else, or a sequence longer than
    /// `maximumSequenceLength`, abandons it and that byte is decoded again.
    mutating func decodeSequence(_ byte: UInt8, introducer: UInt8, into keys: inout [Key]) -> Bool {
        let isParameter = (0x30...0x3F).contains(byte) && !sequenceHasIntermediate
        let isIntermediate = (0x20...0x2F).contains(byte)
        if isParameter || isIntermediate {
            guard sequenceBody.count < Self.maximumSequenceLength else { return abandonSequence(into: &keys) }
            sequenceBody.append(byte)
            sequenceHasIntermediate = sequenceHasIntermediate || isIntermediate
            return true
        }
        guard (0x40...0x7E).contains(byte) else { return abandonSequence(into: &keys) }
        pending = .nothing
        if introducer == UInt8(ascii: "["), byte == UInt8(ascii: "~"), sequenceBody == Self.pasteStartParameters {
            keys.append(.pasteBegan)
            isPasting = true
            endMarkerMatched = 0
        } else {
            keys.append(.ignored)  // arrows, function keys, a stray paste end, anything unknown
        }
        return true
    }

    /// A byte after ESC and a non-ASCII lead byte: the rest of an Alt-modified character.
    mutating func decodeAltCharacter(_ byte: UInt8, into keys: inout [Key]) -> Bool {
        switch scalar.consume(byte) {
        case .needsMore:
            return true
        case .scalar, .invalid:
            keys.append(.ignored)
            pending = .nothing
            return true
        case .truncatedBeforeByte:
            keys.append(.ignored)
            pending = .nothing
            return false
        }
    }

    private mutating func abandonSequence(into keys: inout [Key]) -> Bool {
        keys.append(.ignored)
        pending = .nothing
        return false
    }
}
