/// Text that comes from outside the program (a caller's prompt, a label, a config value, a check's error
/// line, an argument quoted in an error message), made safe to show on a terminal and to speak.
///
/// This is the program's one scrubber. A control character, an escape sequence (CSI, OSC, C1), a bidi override
/// or a zero-width character could drive the terminal, reorder what the user reads, or hide text from the eye
/// but not from the voice. None of them is dropped silently either: each is shown escaped (`\x1B`, `<U+202E>`),
/// so the user sees and hears that the text held something odd.
public enum UntrustedText {
    /// `text` on one line: line breaks and tabs become spaces, everything else that is not plain text is escaped.
    public static func visible(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isLineBreak(scalar) || scalar == "\t" {
                result.append(" ")
            } else {
                append(scalar, to: &result)
            }
        }
        return String(result)
    }

    /// `text` split into its lines (at LF, CR LF, CR, NEL, U+2028, U+2029), each made `visible`.
    public static func visibleLines(_ text: String) -> [String] {
        var lines: [String] = []
        var line = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            defer { previous = scalar }
            if scalar == "\n", previous == "\r" { continue }
            if isLineBreak(scalar) {
                lines.append(String(line))
                line = String.UnicodeScalarView()
            } else if scalar == "\t" {
                line.append(" ")
            } else {
                append(scalar, to: &line)
            }
        }
        lines.append(String(line))
        return lines
    }

    /// Whether `scalar` is shown escaped: C0 and C1 controls and DEL (Unicode's Cc), and the format characters
    /// (Cf: bidi embeddings, overrides and isolates, zero-width space and joiners, the BOM, tag characters).
    public static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format: return true
        default: return false
        }
    }

    private static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }

    private static func append(_ scalar: Unicode.Scalar, to result: inout String.UnicodeScalarView) {
        guard isEscaped(scalar) else {
            result.append(scalar)
            return
        }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let escaped = scalar.value <= 0xFF ? "\\x" + (hex.count < 2 ? "0" + hex : hex) : "<U+\(hex)>"
        result.append(contentsOf: escaped.unicodeScalars)
    }
}
