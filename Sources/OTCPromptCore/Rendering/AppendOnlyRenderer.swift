/// The field for `TERM=dumb` (an Emacs shell buffer, a serial console, a log): nothing but
/// printable text and "\r\n", so nothing is ever moved, coloured or overwritten.
///
/// Typed characters are echoed; any other change (delete, clear, paste replace) starts a new line
/// with the label and the field as it now is. `isError` shows nothing: the rejection is announced.
/// Under `--mask` each character shows as `*`.
public struct AppendOnlyRenderer: FieldRenderer, Sendable {
    private var field = PlainField()

    public init() {}

    public mutating func render(_ snapshot: FieldSnapshot) -> String {
        let (old, shown) = field.update(to: snapshot)
        return PlainField.echo(shown, after: old) ?? draw(snapshot, shown, after: old)
    }

    public mutating func redraw(_ snapshot: FieldSnapshot) -> String {
        let (old, shown) = field.update(to: snapshot)
        return draw(snapshot, shown, after: old)
    }

    public mutating func finish() -> String { field.finish() }

    /// The label and `shown` on a line of their own: a new one when something was drawn before.
    private func draw(_ snapshot: FieldSnapshot, _ shown: [Character], after old: [Character]?) -> String {
        (old == nil ? "" : TerminalText.newline) + snapshot.drawnLabel + String(shown)
    }
}
