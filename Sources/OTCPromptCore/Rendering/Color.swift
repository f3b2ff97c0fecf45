/// An sRGB colour as the command line names it (`--start-color`, `--end-color`) and the boxes
/// style draws it.
public struct Color: Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    /// `#RRGGBB` in upper case, the form usage messages and help text show.
    public var hex: String {
        "#"
            + [red, green, blue].map { byte in
                let digits = String(byte, radix: 16, uppercase: true)
                return digits.count == 1 ? "0" + digits : digits
            }.joined()
    }

    /// The names `--start-color` and `--end-color` accept, with their CSS values, so anyone can
    /// look up exactly what a name means.
    public static let named: [(name: String, color: Color)] = [
        ("red", Color(red: 0xFF, green: 0x00, blue: 0x00)),
        ("green", Color(red: 0x00, green: 0x80, blue: 0x00)),
        ("blue", Color(red: 0x00, green: 0x00, blue: 0xFF)),
        ("cyan", Color(red: 0x00, green: 0xFF, blue: 0xFF)),
        ("magenta", Color(red: 0xFF, green: 0x00, blue: 0xFF)),
        ("yellow", Color(red: 0xFF, green: 0xFF, blue: 0x00)),
        ("orange", Color(red: 0xFF, green: 0xA5, blue: 0x00)),
        ("purple", Color(red: 0x80, green: 0x00, blue: 0x80)),
        ("pink", Color(red: 0xFF, green: 0xC0, blue: 0xCB)),
        ("white", Color(red: 0xFF, green: 0xFF, blue: 0xFF)),
        ("grey", Color(red: 0x80, green: 0x80, blue: 0x80)),
        ("gray", Color(red: 0x80, green: 0x80, blue: 0x80)),
        ("black", Color(red: 0x00, green: 0x00, blue: 0x00)),
    ]

    /// The colour a command-line argument names: `#RRGGBB`, `#RGB` or a name from `named`
    /// (case-insensitive, surrounding spaces ignored); nil when it names none, so the CLI can
    /// report a usage error instead of guessing.
    public static func parse(_ text: String) -> Color? {
        let trimmed = text.droppingOuterWhitespace().lowercased()
        if let entry = named.first(where: { $0.name == trimmed }) { return entry.color }
        guard trimmed.hasPrefix("#") else { return nil }
        let digits = Array(trimmed.dropFirst())
        guard digits.allSatisfy(\.isHexDigit), digits.allSatisfy(\.isASCII) else { return nil }
        let channels: [String]
        switch digits.count {
        case 6: channels = stride(from: 0, to: 6, by: 2).map { String(digits[$0..<$0 + 2]) }
        case 3: channels = digits.map { String([$0, $0]) }
        default: return nil
        }
        let bytes = channels.compactMap { UInt8($0, radix: 16) }
        guard bytes.count == 3 else { return nil }
        return Color(red: bytes[0], green: bytes[1], blue: bytes[2])
    }

    /// `count` colours from `start` to `end`, evenly spaced in sRGB and rounded half up, as the
    /// seeds' gradient outlines run across the boxes; one colour is `start`.
    public static func gradient(from start: Color, to end: Color, count: Int) -> [Color] {
        guard count > 1 else { return count == 1 ? [start] : [] }
        let steps = count - 1
        func mix(_ a: UInt8, _ b: UInt8, _ step: Int) -> UInt8 {
            // (a·(steps−step) + b·step) / steps, rounded half up in integers.
            let twice = 2 * (Int(a) * (steps - step) + Int(b) * step) + steps
            return UInt8(twice / (2 * steps))
        }
        return (0..<count).map { step in
            Color(
                red: mix(start.red, end.red, step), green: mix(start.green, end.green, step),
                blue: mix(start.blue, end.blue, step))
        }
    }
}
