/// How many colours the terminal can show, which decides how a `Color` is encoded (or dropped).
public enum ColorDepth: Int, Comparable, Sendable, CaseIterable {
    /// No colour at all: NO_COLOR is set, or the terminal is dumb.
    case none
    /// The 8 + 8 basic colours (SGR 30–37, 90–97).
    case ansi16
    /// The xterm-256 palette (SGR 38;5;n).
    case ansi256
    /// 24-bit colour (SGR 38;2;r;g;b), as COLORTERM=truecolor announces.
    case trueColor

    public static func < (lhs: ColorDepth, rhs: ColorDepth) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension Color {
    /// The channel values of the xterm-256 colour cube (indices 16–231).
    static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    /// The xterm-256 index (16–255) nearest to this colour: the best of the 6×6×6 cube and the
    /// 24-step grey ramp, by squared distance in sRGB (the cube wins ties). Indices 0–15 are never
    /// chosen because every theme redefines them.
    public var xterm256Index: UInt8 {
        let channels = [Int(red), Int(green), Int(blue)]
        let cube = channels.map { value in
            Self.cubeLevels.indices.min { abs(Self.cubeLevels[$0] - value) < abs(Self.cubeLevels[$1] - value) }!
        }
        let cubeColor = cube.map { Self.cubeLevels[$0] }
        let cubeDistance = Self.squaredDistance(channels, cubeColor)
        let grey = (0..<24).min { a, b in
            Self.squaredDistance(channels, Array(repeating: 8 + 10 * a, count: 3))
                < Self.squaredDistance(channels, Array(repeating: 8 + 10 * b, count: 3))
        }!
        let greyDistance = Self.squaredDistance(channels, Array(repeating: 8 + 10 * grey, count: 3))
        if greyDistance < cubeDistance { return UInt8(232 + grey) }
        return UInt8(16 + 36 * cube[0] + 6 * cube[1] + cube[2])
    }

    /// xterm's default values of the 16 basic colours, to pick the nearest on a 16-colour terminal.
    static let basicPalette: [[Int]] = [
        [0, 0, 0], [205, 0, 0], [0, 205, 0], [205, 205, 0], [0, 0, 238], [205, 0, 205], [0, 205, 205],
        [229, 229, 229], [127, 127, 127], [255, 0, 0], [0, 255, 0], [255, 255, 0], [92, 92, 255],
        [255, 0, 255], [0, 255, 255], [255, 255, 255],
    ]

    /// The basic colour (0–15) nearest to this colour by squared distance, for 16-colour terminals.
    public var ansi16Index: UInt8 {
        let channels = [Int(red), Int(green), Int(blue)]
        let index = Self.basicPalette.indices.min {
            Self.squaredDistance(channels, Self.basicPalette[$0])
                < Self.squaredDistance(channels, Self.basicPalette[$1])
        }!
        return UInt8(index)
    }

    /// The SGR parameters that set this colour as the foreground at `depth`, e.g. "38;2;255;0;0",
    /// "38;5;196" or "91"; nil at `.none`, so no colour sequence is ever written there.
    public func foregroundParameters(_ depth: ColorDepth) -> String? {
        switch depth {
        case .none:
            return nil
        case .ansi16:
            let index = Int(ansi16Index)
            return String(index < 8 ? 30 + index : 90 + index - 8)
        case .ansi256:
            return "38;5;\(xterm256Index)"
        case .trueColor:
            return "38;2;\(red);\(green);\(blue)"
        }
    }

    static func squaredDistance(_ a: [Int], _ b: [Int]) -> Int {
        zip(a, b).reduce(0) { sum, pair in sum + (pair.0 - pair.1) * (pair.0 - pair.1) }
    }
}
