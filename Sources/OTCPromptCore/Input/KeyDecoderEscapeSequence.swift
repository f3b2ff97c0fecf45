/// Escape sequences: lone Esc, Esc and the next key, CSI (ESC [), SS3 (ESC O), Alt plus a control key, the paste
/// start, kitty and modifyOtherKeys keys, and the control strings a terminal replies with (OSC, DCS, APC, PM, SOS).
extension KeyDecoder {
    /// The parameters of ESC [ 2 0 0 ~, the start of a bracketed paste.
    private static let pasteStartParameters: [UInt8] = Array("200".utf8)

    /// The byte after ESC. `escapeCameAlone`: the ESC ended an earlier read, so this byte was written apart
    /// from it. Then only `[` or `O` (the rest of a key a link split) continue it. In the same read, `]`, `P`, `_`,
    /// `^` and `X` begin a terminal's string, and a control byte is Alt plus a key (Alt-Backspace), ignored. Any
    /// other byte, and a printable key above all, is the person's next key after their Esc: tmux's `escape-time`
    /// (500 ms by default) joins an Esc and the key typed within it into one write, and so may a link. The Esc
    /// counts (it cancels) and the byte is not consumed: it and what follows are held (`takeBytesAfterEscape()`).
    mutating func decodeAfterEscape(_ byte: UInt8, escapeCameAlone: Bool, into keys: inout [Key]) -> Bool {
        switch byte {
        case UInt8(ascii: "["), UInt8(ascii: "O"):
            startSequence(introducer: byte)
            return true
        case _ where escapeCameAlone:
            break
        case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "^"), UInt8(ascii: "X"):
            pending = .controlString(sawEscape: false)  // OSC, DCS, APC, PM, SOS
            return true
        case 0x00...0x1A, 0x1C...0x1F, 0x7F:
            keys.append(.ignored)  // Alt-Backspace or Alt-Ctrl-key
            pending = .nothing
            return true
        default:
            break  // a printable key (ASCII or the start of a character), a second Esc, or a byte no key begins with
        }
        keys.append(.escape)
        pending = .nothing
        return false
    }

    /// A byte inside ESC [ … or ESC O …: parameters 0x30–0x3F, then intermediates 0x20–0x2F,
    /// then one final byte 0x40–0x7E. Anything else, or a sequence longer than
    /// `maximumSequenceLength`, abandons it and that byte is decoded again.
    mutating func decodeSequence(_ byte: UInt8, introducer: UInt8, into keys: inout [Key]) -> Bool {
        let isParameter = (0x30...0x3F).contains(byte) && !sequenceHasIntermediate
        let isIntermediate = (0x20...0x2F).contains(byte)
        if isParameter || isIntermediate {
            if sequenceBody.count < Self.maximumSequenceLength {
                sequenceBody.append(byte)
            } else {
                sequenceOverflowed = true  // its digits must never become keys
            }
            sequenceHasIntermediate = sequenceHasIntermediate || isIntermediate
            return true
        }
        guard (0x40...0x7E).contains(byte) else { return abandonSequence(into: &keys) }
        pending = .nothing
        if sequenceOverflowed {
            keys.append(.ignored)
        } else if introducer == UInt8(ascii: "["), byte == UInt8(ascii: "~"),
            sequenceBody == Self.pasteStartParameters
        {
            keys.append(.pasteBegan)
            isPasting = true
            endMarkerMatched = 0
        } else if introducer == UInt8(ascii: "["), let key = Self.modifiedKey(sequenceBody, final: byte) {
            keys.append(key)
        } else if introducer == UInt8(ascii: "["), Self.isTerminalReport(sequenceBody, final: byte) {
            noteReply(final: byte)
            keys.append(.terminalReport)
        } else {
            keys.append(.ignored)  // arrows, function keys, a stray paste end, anything unknown
        }
        return true
    }

    /// The answers `KeyboardProtocol` asks for: kitty's keyboard flags (CSI ? flags u) and the primary device
    /// attributes (CSI ? … c), which come last.
    private mutating func noteReply(final: UInt8) {
        guard sequenceBody.first == UInt8(ascii: "?") else { return }
        if final == UInt8(ascii: "u") { heardKeyboardProtocol = true }
        if final == UInt8(ascii: "c") { heardDeviceAttributes = true }
    }

    mutating func startSequence(introducer: UInt8) {
        sequenceBody.removeAll(keepingCapacity: true)
        sequenceHasIntermediate = false
        sequenceOverflowed = false
        pending = .sequence(introducer: introducer)
    }

    /// A byte inside an OSC, DCS, APC, PM or SOS string: everything up to BEL or ST (ESC \) is the
    /// terminal's, never a key; CAN and SUB abort the string. ESC followed by anything else ends the
    /// string and starts a new sequence.
    mutating func decodeControlString(_ byte: UInt8, sawEscape: Bool, into keys: inout [Key]) -> Bool {
        if sawEscape {
            keys.append(.terminalReport)
            guard byte == UInt8(ascii: "\\") else {
                pending = .escape
                return false
            }
            pending = .nothing
            return true
        }
        switch byte {
        case 0x07, 0x18, 0x1A:
            keys.append(.terminalReport)
            pending = .nothing
        case 0x1B:
            pending = .controlString(sawEscape: true)
        default:
            break
        }
        return true
    }

    /// Whether a CSI sequence is the terminal's own, not a key: a focus report (ESC [ I, ESC [ O), a
    /// reply with a private marker (ESC [ ? … c, ESC [ > … c, ESC [ ? … $ y), or a cursor position
    /// report (ESC [ row ; column R; a Shift-F3 spelled ESC [ 1 ; 2 R reads as one too).
    static func isTerminalReport(_ body: [UInt8], final: UInt8) -> Bool {
        if body.isEmpty { return final == UInt8(ascii: "I") || final == UInt8(ascii: "O") }
        if let marker = body.first, "?>=".utf8.contains(marker) { return true }
        return final == UInt8(ascii: "R") && body.contains(UInt8(ascii: ";"))
    }

    /// A key that kitty's keyboard protocol (CSI code ; modifiers u) or xterm's modifyOtherKeys
    /// (CSI 27 ; modifiers ; code ~) reports, decoded as the key it is, so that a protocol left on by
    /// another program cannot swallow Esc or Ctrl-C. Nil for what otc-prompt has no use for.
    static func modifiedKey(_ body: [UInt8], final: UInt8) -> Key? {
        let fields = body.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).map { field in
            // "code:shifted:base" and "modifiers:event": the first number of each.
            Int(String(decoding: field.prefix { $0 != UInt8(ascii: ":") }, as: UTF8.self))
        }
        let code: Int
        let modifiers: Int
        switch final {
        case UInt8(ascii: "u"):
            guard let first = fields.first, let value = first else { return nil }
            code = value
            modifiers = fields.count > 1 ? (fields[1] ?? 1) : 1
        case UInt8(ascii: "~") where fields.count == 3 && fields[0] == 27:
            guard let value = fields[2], let mods = fields[1] else { return nil }
            code = value
            modifiers = mods
        default:
            return nil
        }
        let bits = max(0, modifiers - 1)
        let shift = bits & 1 != 0
        let alt = bits & 2 != 0
        let control = bits & 4 != 0
        guard !alt, bits & ~(7 | 64 | 128) == 0 else { return nil }  // Caps Lock and Num Lock are fine
        switch code {
        case 27: return .escape
        case 13: return control ? nil : .submit
        case 127, 8: return .backspace
        default: break
        }
        guard let scalar = Unicode.Scalar(code) else { return nil }
        if control {
            // kitty's disambiguate mode sends these as CSI u too: the same keys as their C0 controls.
            switch Character(scalar).lowercased() {
            case "h": return .backspace
            case "j", "m": return .submit
            case "[": return .escape
            case "c": return .interrupt
            case "d": return .endOfInput
            case "u": return .clearField
            case "r": return .readBack
            case "t": return .timeLeft
            case "l": return .redraw
            case "z": return .suspend
            default: return nil
            }
        }
        // Not a control, and not kitty's functional keys (modifiers, keypad), which it codes in the Private Use Area.
        guard code >= 0x20, code != 0x7F, !(0x80...0x9F).contains(code), !(0xE000...0xF8FF).contains(code) else {
            return nil
        }
        let character = Character(scalar)
        // Shift+ß: "ß".uppercased() is "SS", two letters, never one character of the field; kitty's own base key.
        let shifted = character.uppercased()
        return .character(shift && shifted.count == 1 ? Character(shifted) : character)
    }

    private mutating func abandonSequence(into keys: inout [Key]) -> Bool {
        keys.append(.ignored)
        pending = .nothing
        return false
    }
}
