/// Turns the prompt text a caller passes (a label, or an askpass prompt such as
/// "(user@host) Verification code: ") into the field's label.
public enum PromptLabel {
    /// The text without surrounding white space and without a trailing colon.
    public static func trimmed(_ text: String) -> String {
        var label = Substring(text)
        while let last = label.last, last.isWhitespace || last == ":" { label.removeLast() }
        while let first = label.first, first.isWhitespace { label.removeFirst() }
        return String(label)
    }
}
