/// Which characters a code may contain.
public enum CodeCharset: String, Sendable, CaseIterable {
    /// 0-9 only (full-width digits are folded to ASCII).
    case digits
    /// A-Z and 0-9, case-insensitive; accepted letters are upper-cased.
    case alnum
    /// Any printable character (free-text secrets, e.g. a password in askpass mode).
    case any

    /// The character as it is stored in the field, or nil when the charset does not allow it.
    ///
    /// Folds full-width forms (U+FF10–U+FF19, U+FF21–U+FF3A, U+FF41–U+FF5A) to ASCII and
    /// upper-cases letters for `alnum`.
    public func accept(_ character: Character) -> Character? {
        let folded = Self.foldFullWidth(character)
        switch self {
        case .digits:
            return folded.isASCII && folded.isNumber ? folded : nil
        case .alnum:
            guard folded.isASCII, folded.isLetter || folded.isNumber else { return nil }
            return Character(folded.uppercased())
        case .any:
            return folded.unicodeScalars.allSatisfy({ !$0.properties.generalCategory.isControl }) ? character : nil
        }
    }

    /// Maps a full-width ASCII variant (U+FF01–U+FF5E) to its ASCII form; other characters pass through.
    public static func foldFullWidth(_ character: Character) -> Character {
        guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first,
            (0xFF01...0xFF5E).contains(scalar.value),
            let ascii = Unicode.Scalar(scalar.value - 0xFF01 + 0x21)
        else { return character }
        return Character(ascii)
    }
}

extension Unicode.GeneralCategory {
    /// Control, format, surrogate, private-use and unassigned code points: never part of a code.
    var isControl: Bool {
        switch self {
        case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator:
            return true
        default:
            return false
        }
    }
}
