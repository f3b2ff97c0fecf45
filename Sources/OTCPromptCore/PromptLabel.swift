/// Turns the prompt text a caller passes (a label, or an askpass prompt such as
/// "(user@host) Verification code: ") into the field's label.
public enum PromptLabel {
    /// The text without control characters, surrounding white space or a trailing colon.
    ///
    /// In askpass mode the text comes from the remote side (an ssh server's keyboard-interactive
    /// prompt): an escape sequence in it must never reach the terminal, the speech or the log.
    public static func trimmed(_ text: String) -> String {
        var label = Substring(withoutControlCharacters(text))
        while let last = label.last, last.isWhitespace || last == ":" { label.removeLast() }
        while let first = label.first, first.isWhitespace { label.removeFirst() }
        return String(label)
    }

    /// `text` with C0 and C1 controls and DEL removed (line breaks become spaces).
    public static func withoutControlCharacters(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A, 0x0D, 0x09: kept.append(" ")
            case 0x00...0x1F, 0x7F...0x9F: continue
            default: kept.append(scalar)
            }
        }
        return String(kept)
    }
}
