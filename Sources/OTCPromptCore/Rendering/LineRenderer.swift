/// The plain field: "Label: " and the characters, changed the way a person typing would change
/// it, because a terminal screen reader (Speakup, Fenrir, Orca) reads whatever is written.
///
/// - An appended character costs exactly its echo; a deleted one exactly "\b \b".
/// - Any other change (a paste that replaces the content) rewrites the line: "\r", ESC[K, line.
/// - The cursor always rests right after the last character.
/// - `isError` draws nothing: the rejection is announced, and repainting the field in red (and
///   back on the next key) would make the screen reader read the whole field again each time.
///   No colour is ever written, so NO_COLOR needs nothing more.
/// - Under `--mask` each character shows as `*`: ASCII, so every console font and braille
///   display shows it, and screen readers say it in one short word ("star").
public struct LineRenderer: FieldRenderer, Sendable {
    private var field = PlainField()

    public init() {}

    public mutating func render(_ snapshot: FieldSnapshot) -> String {
        let (old, shown) = field.update(to: snapshot)
        guard let old else { return snapshot.drawnLabel + String(shown) }
        if let echo = PlainField.echo(shown, after: old) { return echo }
        if old.starts(with: shown) { return old[shown.count...].reversed().map(TerminalText.erase).joined() }
        return "\r" + TerminalText.eraseToEndOfLine + snapshot.drawnLabel + String(shown)
    }

    public mutating func redraw(_ snapshot: FieldSnapshot) -> String {
        let (_, shown) = field.update(to: snapshot)
        return "\r" + TerminalText.eraseLine + snapshot.drawnLabel + String(shown)
    }

    public mutating func finish() -> String { field.finish() }

    /// The label and the characters are on the cursor's row: it is cleared, the cursor at its start.
    public mutating func erase() -> String {
        field.finish().isEmpty ? "" : TerminalText.eraseRow
    }
}
