/// The character set the terminal speaks, from the locale's codeset (`nl_langinfo(CODESET)`, read
/// by the terminal module): what typed bytes mean and how text must be written. Pure.
///
/// UTF-8 is the norm. ISO-8859-1 and ISO-8859-15 (a Latin-1 terminal: `pt_BR.ISO-8859-1`,
/// `pt_PT@euro`) are transcoded both ways, so a typed `é` is `é` in a secret and on stdout, and
/// Portuguese words reach the screen as the terminal's bytes. Any other codeset has no
/// `TerminalEncoding`: the prompt refuses to start rather than change a secret.
public enum TerminalEncoding: String, Equatable, Sendable {
    case utf8 = "UTF-8"
    case latin1 = "ISO-8859-1"
    case latin9 = "ISO-8859-15"

    /// The encoding a codeset name means, however spelled ("UTF-8", "utf8", "ISO8859-1", "iso88591").
    /// ASCII (the C and POSIX locales' "ANSI_X3.4-1968") is read as UTF-8, of which it is a part: a
    /// login with no locale set is usually a UTF-8 terminal. Nil for anything else.
    public init?(codeset: String) {
        let name = String(codeset.uppercased().filter { $0.isLetter || $0.isNumber })
        switch name {
        case "UTF8", "ANSIX341968", "ASCII", "USASCII", "": self = .utf8
        case "ISO88591", "LATIN1", "ISO885911987": self = .latin1
        case "ISO885915", "LATIN9": self = .latin9
        default: return nil
        }
    }

    /// The codeset a locale name spells ("pt_BR.ISO-8859-1@euro" → "ISO-8859-1"); "" when it names none.
    public static func codeset(inLocaleName name: String) -> String {
        guard let dot = name.firstIndex(of: ".") else { return "" }
        let rest = name[name.index(after: dot)...]
        return String(rest.prefix { $0 != "@" })
    }

    /// Typed bytes as UTF-8, which is what `KeyDecoder` reads: each byte of a Latin-1 terminal is
    /// one character, so nothing typed is ever dropped.
    public func decode(_ bytes: [UInt8]) -> [UInt8] {
        guard self != .utf8, bytes.contains(where: { $0 >= 0x80 }) else { return bytes }
        var utf8: [UInt8] = []
        utf8.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            UTF8.encode(scalar(for: byte)) { utf8.append($0) }
        }
        return utf8
    }

    /// `text` as the terminal's bytes; a character it cannot show becomes "?".
    public func encode(_ text: String) -> [UInt8] {
        guard self != .utf8 else { return Array(text.utf8) }
        return text.unicodeScalars.map { byte(for: $0) ?? UInt8(ascii: "?") }
    }

    /// Whether every character of `text` can be written as it is (a secret must be, to be printed).
    public func canEncode(_ text: String) -> Bool {
        self == .utf8 || text.unicodeScalars.allSatisfy { byte(for: $0) != nil }
    }

    /// ISO-8859-15 differs from ISO-8859-1 in eight places (the euro sign and seven letters).
    private static let latin9Differences: [(byte: UInt8, scalar: UInt32)] = [
        (0xA4, 0x20AC), (0xA6, 0x0160), (0xA8, 0x0161), (0xB4, 0x017D),
        (0xB8, 0x017E), (0xBC, 0x0152), (0xBD, 0x0153), (0xBE, 0x0178),
    ]

    private func scalar(for byte: UInt8) -> Unicode.Scalar {
        if self == .latin9, let pair = Self.latin9Differences.first(where: { $0.byte == byte }) {
            return Unicode.Scalar(pair.scalar)!
        }
        return Unicode.Scalar(byte)
    }

    private func byte(for scalar: Unicode.Scalar) -> UInt8? {
        switch self {
        case .utf8: return nil
        case .latin1: return scalar.value <= 0xFF ? UInt8(scalar.value) : nil
        case .latin9:
            if let pair = Self.latin9Differences.first(where: { $0.scalar == scalar.value }) { return pair.byte }
            if Self.latin9Differences.contains(where: { UInt32($0.byte) == scalar.value }) { return nil }
            return scalar.value <= 0xFF ? UInt8(scalar.value) : nil
        }
    }
}
