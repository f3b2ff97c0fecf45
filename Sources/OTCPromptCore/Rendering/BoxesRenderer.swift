/// How the boxes look: the seeds' gradient outline, grey empty boxes, the empty-slot character.
public struct BoxesStyle: Equatable, Sendable {
    /// Outline of the first box; the outlines run from this to `endColor` across the field.
    public var startColor: Color
    public var endColor: Color
    /// Outline and placeholder of boxes not yet reached: grey.
    public var emptyColor = Color(0x808080)
    /// Every outline while the last input was rejected or a check failed (knOtpView's red state).
    public var errorColor = Color(0xFF0000)
    /// Shown in empty boxes (`--placeholder`); one column wide, see `placeholder(from:)`.
    public var placeholder: Character

    /// A calm blue to purple.
    public static let defaultStartColor = Color(0x3B82F6)
    public static let defaultEndColor = Color(0xA855F7)
    public static let defaultPlaceholder: Character = "•"
    /// Shown in filled boxes under `--mask`.
    public static let maskCharacter: Character = "●"

    /// The colours and placeholder the user may choose (`--start-color`, `--end-color`, `--placeholder`).
    public init(
        startColor: Color = defaultStartColor, endColor: Color = defaultEndColor,
        placeholder: Character = defaultPlaceholder
    ) {
        self.startColor = startColor
        self.endColor = endColor
        self.placeholder = placeholder
    }

    /// The placeholder a `--placeholder` argument names: exactly one printable, one-column
    /// character ('•', '_', ' ', '-', …); nil otherwise, so the CLI reports a usage error.
    public static func placeholder(from text: String) -> Character? {
        guard text.count == 1, let character = text.first, character.terminalColumns == 1,
            !character.unicodeScalars.contains(where: { $0.properties.generalCategory.isControl })
        else { return nil }
        return character
    }
}

/// The seeds' digit boxes on one line: "Label: " then `▕9▏▕8▏▕5▏▕•▏▕•▏▕•▏`, each outline coloured
/// along the gradient, empty boxes grey, the active box (the next to be typed) in bold with its
/// placeholder in reverse video, all outlines red while `isError`.
///
/// Each change rewrites only the boxes that differ (typing one character rewrites two: the box
/// it filled and the one that became active), reached by stepping back with BS from where the
/// cursor rests. The label is never written again, so a screen reader that reads new output hears
/// the changed boxes and not the whole line; a full "\r" redraw would re-read the label on every
/// key. The cursor always rests right after the last typed character's box (on the first box
/// when the field is empty), where a screen reader that follows the cursor expects it.
///
/// Every box opens and closes its own attributes (SGR 39, 22, 27), so nothing stays coloured
/// between calls. At `ColorDepth.none` (NO_COLOR) the boxes draw plain and no escape byte is
/// written by `render` or `finish`. The boxes speak to the eye only: the speech is one field.
public struct BoxesRenderer: FieldRenderer, Sendable {
    public let style: BoxesStyle
    public let colorDepth: ColorDepth

    /// One drawn box: its bytes and how many columns it covers.
    struct Box: Equatable {
        var text: String
        var columns: Int
    }

    /// What is on screen after the label and where the cursor rests; nil before the first draw.
    private var drawn: (boxes: [Box], cursorBox: Int, snapshot: FieldSnapshot)?

    public init(style: BoxesStyle = BoxesStyle(), colorDepth: ColorDepth) {
        self.style = style
        self.colorDepth = colorDepth
    }

    public mutating func render(_ snapshot: FieldSnapshot) -> String {
        guard drawn != nil else { return drawLine(snapshot, prefix: "") }
        return update(to: snapshot, focused: true)
    }

    public mutating func redraw(_ snapshot: FieldSnapshot) -> String {
        // Plain boxes stay free of escape sequences: spaces blank what a wider field left behind.
        guard colorDepth == .none else { return drawLine(snapshot, prefix: "\r" + TerminalText.eraseLine) }
        return drawLine(snapshot, prefix: "\r", padTo: drawn.map { Self.width($0.boxes) } ?? 0)
    }

    /// Drops the active box's highlight (a field left behind in the scrollback has no focus),
    /// then ends the line.
    public mutating func finish() -> String {
        guard let last = drawn else { return "" }
        let unfocus = update(to: last.snapshot, focused: false)
        drawn = nil
        return unfocus + TerminalText.newline
    }

    /// The label and the boxes are on the cursor's row (each box resets its own colours): it is cleared.
    public mutating func erase() -> String {
        guard drawn != nil else { return "" }
        drawn = nil
        return TerminalText.eraseRow
    }

    private mutating func drawLine(_ snapshot: FieldSnapshot, prefix: String, padTo oldWidth: Int = 0) -> String {
        let boxes = self.boxes(for: snapshot, focused: true)
        let cursorBox = min(snapshot.characters.count, boxes.count)
        drawn = (boxes, cursorBox, snapshot)
        let padding = max(oldWidth - Self.width(boxes), 0)
        let back = Self.width(boxes[cursorBox...]) + padding
        return prefix + snapshot.drawnLabel + boxes.map(\.text).joined() + String(repeating: " ", count: padding)
            + TerminalText.left(back)
    }

    /// Rewrites the boxes from the first that differs (or either cursor, if earlier) through the
    /// last that differs (or the box before the new cursor, if later), then steps back to the new
    /// cursor. Never moves right except by writing, so BS is the only movement needed.
    private mutating func update(to snapshot: FieldSnapshot, focused: Bool) -> String {
        guard let old = drawn else { return "" }
        let boxes = self.boxes(for: snapshot, focused: focused)
        let cursorBox = min(snapshot.characters.count, boxes.count)
        drawn = (boxes, cursorBox, snapshot)
        let changed = boxes.indices.filter { $0 >= old.boxes.count || boxes[$0] != old.boxes[$0] }
        if changed.isEmpty && cursorBox == old.cursorBox { return "" }
        // Without colour a typed character can look like the placeholder: the boxes stay, the cursor moves.
        let first = min(changed.first ?? cursorBox, old.cursorBox, cursorBox)
        let last = max(changed.last ?? first - 1, cursorBox - 1)
        var output = TerminalText.left(Self.width(old.boxes[first..<old.cursorBox]))
        guard last >= first else { return output }
        output += boxes[first...last].map(\.text).joined()
        var back = Self.width(boxes[cursorBox..<last + 1])
        if last == boxes.count - 1 {
            let padding = max(Self.width(old.boxes) - Self.width(boxes), 0)
            output += String(repeating: " ", count: padding)
            back += padding
        }
        return output + TerminalText.left(back)
    }

    func boxes(for snapshot: FieldSnapshot, focused: Bool) -> [Box] {
        let gradient = Color.gradient(from: style.startColor, to: style.endColor, count: snapshot.length)
        return (0..<snapshot.length).map { index in
            if index < snapshot.characters.count {
                let character = snapshot.mask ? BoxesStyle.maskCharacter : snapshot.characters[index]
                let outline = snapshot.isError ? style.errorColor : gradient[index]
                return filledBox(character, outline: outline)
            }
            let outline = snapshot.isError ? style.errorColor : gradient[index]
            if focused && index == snapshot.characters.count { return activeBox(outline: outline) }
            return emptyBox(outline: snapshot.isError ? style.errorColor : style.emptyColor)
        }
    }

    /// A typed character in the default colour between outlines of the box's colour.
    private func filledBox(_ character: Character, outline: Color) -> Box {
        let columns = 2 + character.terminalColumns
        guard let color = outline.foregroundParameters(colorDepth) else {
            return Box(text: "▕\(character)▏", columns: columns)
        }
        let text = Self.sgr(color) + "▕" + Self.sgr("39") + String(character) + Self.sgr(color) + "▏" + Self.sgr("39")
        return Box(text: text, columns: columns)
    }

    /// The next box to type into: bold outline of its gradient colour, placeholder in reverse
    /// video so even a space placeholder shows as a block.
    private func activeBox(outline: Color) -> Box {
        guard let color = outline.foregroundParameters(colorDepth) else {
            return Box(text: "▕\(style.placeholder)▏", columns: 3)
        }
        let text =
            Self.sgr("1;" + color) + "▕" + Self.sgr("7") + String(style.placeholder) + Self.sgr("27") + "▏"
            + Self.sgr("22;39")
        return Box(text: text, columns: 3)
    }

    /// A box not yet reached: outline and placeholder both in the empty colour.
    private func emptyBox(outline: Color) -> Box {
        guard let color = outline.foregroundParameters(colorDepth) else {
            return Box(text: "▕\(style.placeholder)▏", columns: 3)
        }
        return Box(text: Self.sgr(color) + "▕\(style.placeholder)▏" + Self.sgr("39"), columns: 3)
    }

    private static func sgr(_ parameters: String) -> String { "\u{1B}[\(parameters)m" }

    private static func width<S: Sequence<Box>>(_ boxes: S) -> Int { boxes.reduce(0) { $0 + $1.columns } }
}
