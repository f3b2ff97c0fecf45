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
        ("red", Color(0xFF0000)),
        ("green", Color(0x008000)),
        ("blue", Color(0x0000FF)),
        ("cyan", Color(0x00FFFF)),
        ("magenta", Color(0xFF00FF)),
        ("yellow", Color(0xFFFF00)),
        ("orange", Color(0xFFA500)),
        ("purple", Color(0x800080)),
        ("pink", Color(0xFFC0CB)),
        ("white", Color(0xFFFFFF)),
        ("grey", Color(0x808080)),
        ("gray", Color(0x808080)),
        ("black", Color(0x000000)),
    ]

    /// The colour a command-line argument names: `#RRGGBB`, `#RGB` or a name from `named`
    /// (case-insensitive, surrounding spaces ignored); nil when it names none, so the CLI can
    /// report a usage error instead of guessing.
    public static func parse(_ text: String) -> Color? {
        let trimmed = text.droppingOuterWhitespace().lowercased()
        if let entry = named.first(where: { $0.name == trimmed }) { return entry.color }
        guard trimmed.hasPrefix("#") else { return nil }
        let digits = trimmed.dropFirst()
        guard digits.allSatisfy(\.isHexDigit), digits.allSatisfy(\.isASCII) else { return nil }
        let rgb: String
        switch digits.count {
        case 6: rgb = String(digits)
        case 3: rgb = String(digits.flatMap { [$0, $0] })
        default: return nil
        }
        return UInt32(rgb, radix: 16).map(Color.init)
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

// An extension, so the memberwise `Color(red:green:blue:)` stays.
extension Color {
    /// The colour `0xRRGGBB` holds, as CSS and `#RRGGBB` write it: `Color(0xFFA500)` is orange.
    public init(_ rgb: UInt32) {
        self.init(red: UInt8(rgb >> 16 & 0xFF), green: UInt8(rgb >> 8 & 0xFF), blue: UInt8(rgb & 0xFF))
    }
}
