/// Bracketed paste: everything between ESC [ 2 0 0 ~ and ESC [ 2 0 1 ~ is text, streamed out
/// once per feed so that a paste of any size costs one feed's memory.
extension KeyDecoder {
    /// ESC [ 2 0 1 ~, the end of a bracketed paste.
    static func endMarkerByte(at index: Int) -> UInt8 {
        switch index {
        case 0: 0x1B
        case 1: UInt8(ascii: "[")
        case 2: UInt8(ascii: "2")
        case 3: UInt8(ascii: "0")
        case 4: UInt8(ascii: "1")
        default: UInt8(ascii: "~")
        }
    }
    private static let endMarkerLength = 6

    /// Decodes paste bytes from `start` until the end marker or the end of `bytes`; returns the
    /// index of the first byte not consumed.
    mutating func decodePaste(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, into keys: inout [Key]) -> Int {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == Self.endMarkerByte(at: endMarkerMatched) {
                endMarkerMatched += 1
                guard endMarkerMatched == Self.endMarkerLength else { continue }
                if scalar.isAssembling { pasteDroppedBytes = true }  // a character cut short by the marker
                scalar.reset()
                emitPasteText(into: &keys)
                keys.append(.pasteEnded)
                reportDroppedPasteBytes(into: &keys)
                isPasting = false
                endMarkerMatched = 0
                return index
            }
            // The held bytes were not the marker after all: they are text. ESC appears only at
            // the marker's start, so this byte can only restart a match if it is ESC.
            for held in 0..<endMarkerMatched { appendPasteByte(Self.endMarkerByte(at: held)) }
            endMarkerMatched = 0
            if byte == 0x1B {
                endMarkerMatched = 1
            } else {
                appendPasteByte(byte)
            }
        }
        return index
    }

    /// Adds one byte of pasted text; control characters are kept, invalid UTF-8 is left out and
    /// reported once the paste ends (`.undecodable`), never dropped silently.
    mutating func appendPasteByte(_ byte: UInt8) {
        if byte < 0x80, !scalar.isAssembling {
            pasteBytes.append(byte)
            return
        }
        var step = scalar.consume(byte)
        if step == .truncatedBeforeByte {
            pasteDroppedBytes = true
            step = scalar.consume(byte)
        }
        switch step {
        case .scalar(let value): UTF8.encode(value) { pasteBytes.append($0) }
        case .invalid: pasteDroppedBytes = true
        case .needsMore, .truncatedBeforeByte: break
        }
    }

    /// After `.pasteEnded`: `.undecodable` once when some of the paste's bytes were not UTF-8.
    mutating func reportDroppedPasteBytes(into keys: inout [Key]) {
        guard pasteDroppedBytes else { return }
        pasteDroppedBytes = false
        keys.append(.undecodable)
    }

    mutating func emitPasteText(into keys: inout [Key]) {
        guard !pasteBytes.isEmpty else { return }
        keys.append(.pasteText(String(decoding: pasteBytes, as: UTF8.self)))
        pasteBytes.removeAll(keepingCapacity: true)
    }
}

extension KeyDecoder {
    /// True between `.pasteBegan` and `.pasteEnded`: every byte is pasted text, keys included.
    public var isInsidePaste: Bool { isPasting }

    /// Closes a paste whose end marker never came (a terminal gone mid-paste, or ESC [ 2 0 0 ~
    /// typed by hand), so that keys count again. Emits the held text and `.pasteEnded`; does
    /// nothing outside a paste. The caller decides when, e.g. after seconds without a byte.
    public mutating func endPaste() -> [Key] {
        guard isPasting else { return [] }
        var keys: [Key] = []
        for held in 0..<endMarkerMatched { appendPasteByte(Self.endMarkerByte(at: held)) }
        endMarkerMatched = 0
        if scalar.isAssembling { pasteDroppedBytes = true }
        scalar.reset()
        emitPasteText(into: &keys)
        keys.append(.pasteEnded)
        reportDroppedPasteBytes(into: &keys)
        isPasting = false
        return keys
    }
}
