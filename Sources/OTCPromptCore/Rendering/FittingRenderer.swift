/// Keeps the field on one row of the terminal, because a row the terminal wrapped can be neither
/// redrawn ("\r" reaches only its last row, so Ctrl-L and every resize would add a copy) nor
/// stepped back over (Backspace does not cross to the row above). For each snapshot it picks the
/// first layout that fits `columns`:
///
/// 1. `inline`: the label and the field on one row, as the chosen renderer draws them;
/// 2. `labelAbove`: the label on a row of its own (broken at spaces to fit, written once), the
///    field alone on the next row, drawn by the same kind of renderer;
/// 3. `appendOnly`: a field wider than the terminal (a long password) is drawn as on a dumb
///    terminal, never moving the cursor back.
///
/// A change of layout (a resize, a password grown too long) ends the old drawing with a newline
/// and starts the new one below it. With the width unknown, the layout is `inline`.
public struct FittingRenderer: FieldRenderer {
    public enum Layout: Equatable, Sendable { case inline, labelAbove, appendOnly }

    private var inline: any FieldRenderer
    private var field: any FieldRenderer
    private var plain = AppendOnlyRenderer()
    /// How many columns the field needs without its label, cursor excluded.
    private let fieldColumns: @Sendable (FieldSnapshot) -> Int
    private var columns: Int?
    /// What is on the screen now; nil before the first draw and after `finish()`.
    public private(set) var layout: Layout?
    /// Rows the label took above the field in `labelAbove`, for `erase`.
    private var labelRows = 0

    /// `makeRenderer` gives a renderer of the same kind twice: one draws with the label, one without.
    public init(
        inline: any FieldRenderer, field: any FieldRenderer,
        fieldColumns: @escaping @Sendable (FieldSnapshot) -> Int
    ) {
        self.inline = inline
        self.field = field
        self.fieldColumns = fieldColumns
    }

    /// The renderer of the `inline` layout: the line or boxes `makeRenderer` chose.
    public var inlineRenderer: any FieldRenderer { inline }

    public mutating func fit(columns: Int?) {
        self.columns = columns.flatMap { $0 > 0 ? $0 : nil }
    }

    /// The layout `snapshot` gets at the current width; the cursor needs one column after the field.
    public func layout(for snapshot: FieldSnapshot) -> Layout {
        guard let columns else { return .inline }
        let need = fieldColumns(snapshot)
        if TerminalWidth.columns(of: snapshot.drawnLabel) + need < columns { return .inline }
        return need < columns ? .labelAbove : .appendOnly
    }

    public mutating func render(_ snapshot: FieldSnapshot) -> String { update(snapshot, redrawing: false) }

    public mutating func redraw(_ snapshot: FieldSnapshot) -> String { update(snapshot, redrawing: true) }

    /// Draws `snapshot` afresh when its layout changes, else through the layout's own renderer. In
    /// `labelAbove` that is the field's row alone: the label above stays, so nothing is drawn twice.
    private mutating func update(_ snapshot: FieldSnapshot, redrawing: Bool) -> String {
        let wanted = layout(for: snapshot)
        guard let layout, layout == wanted else { return start(wanted, snapshot) }
        func draw(_ renderer: inout some FieldRenderer, _ snapshot: FieldSnapshot) -> String {
            redrawing ? renderer.redraw(snapshot) : renderer.render(snapshot)
        }
        switch layout {
        case .inline: return draw(&inline, snapshot)
        case .labelAbove: return draw(&field, snapshot.withoutLabel)
        case .appendOnly: return draw(&plain, snapshot)
        }
    }

    public mutating func finish() -> String {
        defer { layout = nil }
        switch layout {
        case .inline: return inline.finish()
        case .labelAbove: return field.finish()
        case .appendOnly: return plain.finish()
        case nil: return ""
        }
    }

    /// Erases the rows drawn: the field's row, and in `labelAbove` the label's rows above it, so the lines
    /// that follow start where the label did. The plain layout may have wrapped rows it does not count:
    /// it is ended, as on a dumb terminal.
    public mutating func erase() -> String {
        defer { layout = nil }
        switch layout {
        case .inline: return inline.erase()
        case .labelAbove:
            let row = field.erase()
            return row.isEmpty ? "" : "\r" + TerminalText.up(labelRows) + TerminalText.eraseToEndOfScreen
        case .appendOnly: return plain.finish()
        case nil: return ""
        }
    }

    /// Ends what is drawn (if anything) and draws `snapshot` in `wanted` from a fresh row.
    private mutating func start(_ wanted: Layout, _ snapshot: FieldSnapshot) -> String {
        let end = finish()
        layout = wanted
        switch wanted {
        case .inline: return end + inline.render(snapshot)
        case .labelAbove:
            let label = String(snapshot.drawnLabel.droppingOuterWhitespace())
            let lines = LineWrapping.wrap(label, width: columns.map { $0 - 1 })
            labelRows = lines.isEmpty ? 0 : lines.split(separator: "\n").count
            let above = lines.isEmpty ? "" : lines.split(separator: "\n").joined(separator: TerminalText.newline)
            return end + above + (above.isEmpty ? "" : TerminalText.newline) + field.render(snapshot.withoutLabel)
        case .appendOnly: return end + plain.render(snapshot)
        }
    }
}

extension FieldSnapshot {
    /// The same field with no label, drawn under a label of its own.
    var withoutLabel: FieldSnapshot {
        var copy = self
        copy.label = ""
        return copy
    }

    /// Columns of the line renderer's field: what is shown, or a whole short code so that the
    /// layout does not change as it is typed.
    public var lineFieldColumns: Int {
        let shown = TerminalWidth.columns(of: String(shownCharacters(mask: PlainField.maskCharacter)))
        return max(shown, length <= Self.reservedLength ? length : 0)
    }

    /// Columns of the boxes: two outline columns per box around its character or placeholder.
    public var boxesColumns: Int {
        let shown = shownCharacters(mask: BoxesStyle.maskCharacter)
        return shown.reduce(0) { $0 + 2 + TerminalWidth.columns(of: $1) } + 3 * max(length - shown.count, 0)
    }

    /// Codes up to this long reserve their whole width; a free-text secret (up to 256) only what it holds.
    static let reservedLength = 32
}
