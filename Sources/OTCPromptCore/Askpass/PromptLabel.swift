/// Turns the prompt text a caller passes (a label, or an askpass prompt such as
/// "(user@host) Verification code: ") into the field's label.
public enum PromptLabel {
    /// The text made visible (`UntrustedText`), without surrounding white space or a trailing colon.
    ///
    /// In askpass mode the text comes from the remote side (an ssh server's keyboard-interactive
    /// prompt): an escape sequence in it must never reach the terminal, the speech or the log raw.
    public static func trimmed(_ text: String) -> String {
        var label = Substring(UntrustedText.visible(text))
        while let last = label.last, last.isWhitespace || last == ":" { label.removeLast() }
        while let first = label.first, first.isWhitespace { label.removeFirst() }
        return String(label)
    }
}
