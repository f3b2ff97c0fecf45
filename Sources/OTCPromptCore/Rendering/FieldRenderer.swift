/// What the screen should show of the field at one moment.
public struct FieldSnapshot: Equatable, Sendable {
    public var label: String
    /// The real characters; a renderer shows a mask character instead when `mask` is set.
    public var characters: [Character]
    public var length: Int
    public var mask: Bool
    /// The last input was rejected (or a check failed): shown until the next key.
    public var isError: Bool

    public init(label: String, characters: [Character], length: Int, mask: Bool, isError: Bool) {
        self.label = label
        self.characters = characters
        self.length = length
        self.mask = mask
        self.isError = isError
    }
}

/// Turns field snapshots into the bytes that bring the terminal from what it shows to what it
/// should show. Stateful: it remembers what it drew, so a typed character costs one echoed
/// character, not a redrawn line (a terminal screen reader then reads just that character).
public protocol FieldRenderer {
    /// The bytes that update the screen from the last drawn snapshot to `snapshot`.
    mutating func render(_ snapshot: FieldSnapshot) -> String
    /// The bytes that draw `snapshot` from scratch on a fresh line (Ctrl-L, resize, resume).
    mutating func redraw(_ snapshot: FieldSnapshot) -> String
    /// The bytes that leave the terminal clean when the prompt ends: end the line, reset attributes.
    mutating func finish() -> String
    /// The bytes that take the drawn field off the screen when announcements become text lines in its
    /// place, leaving the cursor at the start of its first row; a field that stayed would no longer track
    /// what is typed. A renderer that cannot move back over what it drew ends its line instead.
    mutating func erase() -> String
    /// The terminal is `columns` wide now (nil: unknown); called before the first draw and on resize.
    mutating func fit(columns: Int?)
}

extension FieldRenderer {
    /// Most renderers draw the same at any width; `FittingRenderer` chooses a layout.
    public mutating func fit(columns: Int?) {}

    /// Most renderers cannot step back over what they drew (a dumb terminal, nothing drawn): they end it.
    public mutating func erase() -> String { finish() }
}

/// Draws nothing: with `--speech text` each announcement is its own line and is the whole
/// interface, so a field drawn beside them would only interleave with the lines a braille display
/// or terminal screen reader is following.
public struct NullRenderer: FieldRenderer, Sendable {
    public init() {}
    public mutating func render(_ snapshot: FieldSnapshot) -> String { "" }
    public mutating func redraw(_ snapshot: FieldSnapshot) -> String { "" }
    public mutating func finish() -> String { "" }
}

/// The look the user asks for with `--style`.
public enum FieldStyle: String, Sendable, CaseIterable {
    /// The label and the characters as typed: what screen readers follow best.
    case line
    /// One outlined cell per character with the seeds' gradient, for people who see the screen.
    case boxes
}

/// Which renderer a session gets once the terminal, the speech mode and `--style` are weighed.
public enum FieldPresentation: Equatable, Sendable {
    case null
    case appendOnly
    case line
    case boxes
}

/// Picks the presentation. In order:
/// 1. `--speech text` → `.null`: the announcement lines are the interface (even with `--style`).
/// 2. A dumb terminal → `.appendOnly`, even with `--style boxes` or `line`: it cannot move the
///    cursor, so anything else would print escape sequences as garbage. An explicit style cannot
///    make the terminal capable.
/// 3. An explicit `--style` → that style (boxes without colour draw plain outlines).
/// 4. Otherwise `.boxes` where `TerminalCapabilities.prefersBoxes`, else `.line` (NO_COLOR,
///    16 colours, a non-UTF-8 locale).
public func choosePresentation(
    style: FieldStyle?, speechIsText: Bool, capabilities: TerminalCapabilities
) -> FieldPresentation {
    if speechIsText { return .null }
    if capabilities.isDumb || capabilities.wantsPlainOutput { return .appendOnly }
    switch style ?? (capabilities.prefersBoxes ? .boxes : .line) {
    case .line: return .line
    case .boxes: return .boxes
    }
}

/// The renderer for a session (see `choosePresentation` for the rules).
public func makeRenderer(
    style: FieldStyle?, speechIsText: Bool, capabilities: TerminalCapabilities, boxes: BoxesStyle
) -> any FieldRenderer {
    switch choosePresentation(style: style, speechIsText: speechIsText, capabilities: capabilities) {
    case .null: return NullRenderer()
    case .appendOnly: return AppendOnlyRenderer()
    case .line: return FittingRenderer(inline: LineRenderer(), field: LineRenderer(), fieldColumns: \.lineFieldColumns)
    case .boxes:
        return FittingRenderer(
            inline: BoxesRenderer(style: boxes, colorDepth: capabilities.colorDepth),
            field: BoxesRenderer(style: boxes, colorDepth: capabilities.colorDepth), fieldColumns: \.boxesColumns)
    }
}

extension FieldSnapshot {
    /// What precedes the field: the label made `UntrustedText.visible` (it comes from argv or a
    /// caller and must not smuggle escape sequences onto the terminal), then ": " unless the label
    /// already ends in ':' or '?' (askpass prompts such as "Password: " do). Empty for an empty label; the
    /// label alone when there is no field to type into (a notice such as "Confirm user presence for key …").
    var drawnLabel: String {
        let printable = UntrustedText.visible(label).droppingOuterWhitespace()
        guard let last = printable.last else { return "" }
        guard length > 0 else { return printable }
        return last == ":" || last == "?" ? printable + " " : printable + ": "
    }

    /// The characters as they appear on screen: `mask` in place of each one under `--mask`.
    func shownCharacters(mask maskCharacter: Character) -> [Character] {
        mask ? Array(repeating: maskCharacter, count: characters.count) : characters
    }
}

/// Control sequences the renderers share. Cursor moves left with BS, not CSI D: it needs no
/// escape sequence, every terminal has it, and it is what a typed Backspace echoes.
public enum TerminalText {
    static let eraseToEndOfLine = "\u{1B}[K"
    static let eraseLine = "\u{1B}[2K"
    /// Ends the line drawn (what a renderer's `finish` writes).
    public static let newline = "\r\n"
    /// The cursor's row cleared, the cursor at its start: a line drawn again in place.
    public static let eraseLineInPlace = "\r" + eraseLine
    /// The terminal's own tone (BEL): a cue where no word is said.
    public static let bell = "\u{07}"
    static let eraseToEndOfScreen = "\u{1B}[J"
    /// The cursor's row and all below it cleared, the cursor at the row's start.
    static let eraseRow = "\r" + eraseToEndOfScreen

    /// Up `rows` rows: CSI A, which no terminal that moves its cursor lacks.
    static func up(_ rows: Int) -> String { rows > 0 ? "\u{1B}[\(rows)A" : "" }

    static func left(_ columns: Int) -> String { String(repeating: "\u{8}", count: max(columns, 0)) }

    /// Erases the character just before the cursor and leaves the cursor where it began.
    static func erase(_ character: Character) -> String {
        let columns = character.terminalColumns
        return left(columns) + String(repeating: " ", count: columns) + left(columns)
    }
}
