/// How many columns a terminal gives text, as glibc's `wcwidth` does, so the renderers can tell
/// what fits on a row and how far Backspace must step back. Pure: no locale, no Foundation.
///
/// - 2: East Asian Wide and Fullwidth (`wideRanges`, generated from the Unicode Character
///   Database by `scripts/generate-width-table.py`) and emoji drawn as emoji.
/// - 0: combining marks (Mn, Me), format characters (zero-width space and joiners, bidi
///   controls, the soft hyphen), Hangul medial vowels and final consonants, and control characters.
/// - 1: everything else.
public enum TerminalWidth {
    public static func columns(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value < 0x20 ? 0 : 1 }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }
        if isWide(value) || properties.isEmojiPresentation { return 2 }
        return 1
    }

    /// A character's base decides (a lone mark is 0 columns), and U+FE0F asks for the emoji form.
    public static func columns(of character: Character) -> Int {
        var scalars = character.unicodeScalars.makeIterator()
        guard let first = scalars.next() else { return 0 }
        let base = columns(of: first)
        if base == 1, character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        return base
    }

    public static func columns(of text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + columns(of: $1) }
    }

    /// Binary search in the sorted, disjoint `wideRanges`.
    static func isWide(_ value: UInt32) -> Bool {
        var low = 0
        var high = wideRanges.count
        while low < high {
            let middle = (low + high) / 2
            if wideRanges[middle].upperBound < value {
                low = middle + 1
            } else if wideRanges[middle].lowerBound > value {
                high = middle
            } else {
                return true
            }
        }
        return false
    }
}
