/// What the line and append-only renderers share: the field as plain text, `*` in place of each
/// character under `--mask` (see `LineRenderer`), what of it is on the screen, a typed character's
/// echo, and the line ended at the end.
struct PlainField: Sendable {
    static let maskCharacter: Character = "*"

    /// What is on the screen after the label; nil before the first draw and after `finish()`.
    private var drawn: [Character]?

    /// Takes `snapshot` as drawn: what was on the screen before it (nil: nothing yet), and what it shows.
    mutating func update(to snapshot: FieldSnapshot) -> (old: [Character]?, shown: [Character]) {
        let shown = snapshot.shownCharacters(mask: Self.maskCharacter)
        defer { drawn = shown }
        return (drawn, shown)
    }

    /// What a typed character costs when `shown` only adds to `old`: exactly the echo of what was added.
    static func echo(_ shown: [Character], after old: [Character]?) -> String? {
        guard let old, shown.starts(with: old) else { return nil }
        return String(shown[old.count...])
    }

    /// Ends the line drawn, if any.
    mutating func finish() -> String {
        defer { drawn = nil }
        return drawn == nil ? "" : TerminalText.newline
    }
}
