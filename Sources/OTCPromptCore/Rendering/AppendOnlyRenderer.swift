/// The field for `TERM=dumb` (an Emacs shell buffer, a serial console, a log): nothing but
/// printable text and "\r\n", so nothing is ever moved, coloured or overwritten.
///
/// Typed characters are echoed; any other change (delete, clear, paste replace) starts a new line
/// with the label and the field as it now is. `isError` shows nothing: the rejection is announced.
/// Under `--mask` each character shows as `*`.
public struct AppendOnlyRenderer: FieldRenderer, Sendable {
    public static let maskCharacter: Character = "*"

    /// What the current line shows after the label; nil before the first draw and after `finish()`.
    private var drawn: [Character]?

    public init() {}

    public mutating func render(_ snapshot: FieldSnapshot) -> String {
        let shown = snapshot.shownCharacters(mask: Self.maskCharacter)
        guard let old = drawn else { return redraw(snapshot) }
        if shown.starts(with: old) {
            drawn = shown
            return String(shown[old.count...])
        }
        return redraw(snapshot)
    }

    public mutating func redraw(_ snapshot: FieldSnapshot) -> String {
        let shown = snapshot.shownCharacters(mask: Self.maskCharacter)
        defer { drawn = shown }
        return (drawn == nil ? "" : TerminalText.newline) + snapshot.drawnLabel + String(shown)
    }

    public mutating func finish() -> String {
        defer { drawn = nil }
        return drawn == nil ? "" : TerminalText.newline
    }
}
