import OTCPromptCore

/// A view as one line of braille cells: the news while it is news, the label, then the field, the readback in its
/// place while Ctrl-R's answer stands. One cell per Unicode scalar, as BrlAPI counts them; combining marks are left
/// out, since they take no cell of their own.
///
/// A masked field is one cell of dots 7 and 8 per character (`maskedCell`), never the character, and no cursor is
/// drawn after it: brltty's usual cursor is those same two dots, and would read as one character more.
struct BrailleLine: Equatable, Sendable {
    /// A masked character: dots 7 and 8 (U+28C0), which brltty writes as those dots whatever the user's table.
    static let maskedCell: Unicode.Scalar = "\u{28C0}"

    /// Which part of the line a window shows first when the view changes.
    enum Focus: Equatable, Sendable {
        /// The line's start: news is read from its beginning.
        case start
        /// The field's first cell: a readback is read from the code's beginning.
        case field
        /// The cursor's cell, the line's end when no cursor is drawn: where the next character goes.
        case cursor
    }

    var cells: [Unicode.Scalar]
    /// The cell where the next character goes (may be one past the last); nil when nothing is typed here.
    var cursor: Int?
    /// Whether brltty draws its cursor on `cursor`'s cell (not for a masked field, nor a readback).
    var showsCursor: Bool
    /// Where the field begins.
    var fieldStart: Int
    var focus: Focus

    init(_ view: SessionView) {
        var cells: [Unicode.Scalar] = []
        if let news = view.news { cells += Self.cells(news) + [" "] }
        cells += Self.cells(view.label)
        let fieldStart = cells.count
        self.fieldStart = fieldStart
        switch (view.readBack, view.field) {
        case (.groups(let groups)?, _):
            cells += Self.cells(groups.map { String($0) }.joined(separator: " "))
        case (.words(let words)?, _):
            cells += Self.cells(words)
        case (nil, .characters(let characters)?):
            cells += Self.cells(String(characters))
        case (nil, .masked(let count)?):
            cells += Array(repeating: Self.maskedCell, count: count)
        case (nil, nil):
            break
        }
        self.cells = cells
        if view.readBack != nil {
            cursor = nil
            showsCursor = false
            focus = .field
        } else {
            let cursor = view.cursor.map { fieldStart + $0 }
            self.cursor = cursor
            if case .masked? = view.field { showsCursor = false } else { showsCursor = cursor != nil }
            focus = view.news == nil ? .cursor : .start
        }
    }

    /// Scalars that take a cell: everything but combining marks.
    static func cells(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter {
            switch $0.properties.generalCategory {
            case .nonspacingMark, .enclosingMark: false
            default: true
            }
        }
    }

    /// How many cells the line needs, the cursor's included.
    var length: Int { max(cells.count, (cursor ?? -1) + 1) }

    /// The first cell of a window `width` cells wide that shows the line's focus: the start when all of it fits,
    /// else the news from its start, the readback from the field's start (with what of the label fits before it,
    /// when all of the readback fits), or the cursor's cell at the window's right edge, with what was typed before it
    /// to its left.
    func start(width: Int) -> Int {
        guard width > 0, length > width else { return 0 }
        switch focus {
        case .start: return 0
        case .field: return min(fieldStart, length - width)
        case .cursor: return max(0, (cursor ?? cells.count) - width + 1)
        }
    }

    /// The window that begins at `start`: exactly `width` cells, blanks past the line's end.
    func window(start: Int, width: Int) -> BrailleWindow {
        let width = max(width, 0)
        let start = min(max(start, 0), max(length - width, 0))
        var shown = Array(cells.dropFirst(start).prefix(width))
        shown += Array(repeating: " ", count: width - shown.count)
        let cursorInWindow = cursor.flatMap { cursor in
            showsCursor && cursor >= start && cursor < start + width ? cursor - start : nil
        }
        return BrailleWindow(start: start, cells: shown, cursor: cursorInWindow)
    }

    /// Where a window `width` cells wide that begins at `start` moves when the user pans.
    func start(afterPanning pan: BraillePan, from start: Int, width: Int) -> Int {
        let last = max(length - width, 0)
        switch pan {
        case .left: return max(start - width, 0)
        case .right: return min(start + width, last)
        case .lineStart: return 0
        case .lineEnd: return last
        case .focus: return self.start(width: width)
        }
    }
}

/// What a display of `cells.count` cells shows of a line.
struct BrailleWindow: Equatable, Sendable {
    /// The line's cell the window begins at.
    var start: Int
    var cells: [Unicode.Scalar]
    /// The cursor's cell within the window, from 0; nil when none is drawn there.
    var cursor: Int?

    /// The cells as text.
    var text: String {
        var text = ""
        text.unicodeScalars.append(contentsOf: cells)
        return text
    }
}

/// The display's panning keys, which move along a line longer than the display.
enum BraillePan: Equatable, Sendable {
    case left, right, lineStart, lineEnd
    /// Back to where the line's focus is (brltty's "return" command).
    case focus
}
