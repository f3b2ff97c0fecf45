import OTCPromptCore

/// The field on the terminal: a `FieldRenderer`'s bytes, fitted to the window's width. Where the announcements are
/// text lines (`--speech text`, or once the voice failed) it draws nothing, and the lines are the screen.
public final class ScreenOutput: FieldDrawing {
    private var renderer: any FieldRenderer
    private let terminal: any PromptTerminal
    /// Fitted to the window once before the first draw, then again on each whole draw (a resize, back from a stop).
    private var fitted = false

    public init(renderer: any FieldRenderer, terminal: any PromptTerminal) {
        self.renderer = renderer
        self.terminal = terminal
    }

    /// Whether the field is drawn (false once the announcements are the lines).
    var drawsField: Bool { !(renderer is NullRenderer) }

    public func draw(_ snapshot: FieldSnapshot, whole: Bool) {
        if whole || !fitted {
            renderer.fit(columns: terminal.columns)
            fitted = true
        }
        terminal.write(whole ? renderer.redraw(snapshot) : renderer.render(snapshot))
    }

    /// A line the announcements also say is not written where they are the lines already.
    public func show(lines: [String], alsoSaid: Bool) {
        if alsoSaid && !drawsField { return }
        terminal.write(renderer.finish())
        for line in lines { terminal.writeLine(line) }
    }

    /// The field leaves the screen (left there it would no longer track what is typed, and a braille display would
    /// read it among the lines); nothing more is drawn.
    public func speechBecameText() {
        terminal.write(renderer.erase())
        renderer = NullRenderer()
    }

    public func end() {
        terminal.write(renderer.finish())
    }

    /// Nothing to close: the terminal is the loop's.
    public func close() {}
}
