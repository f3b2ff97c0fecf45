#if canImport(Glibc)
    import Glibc
#endif

/// What a terminal would show after `output`, line by line: a small VT100 interpreter that applies what the
/// renderers emit (printable text, CR, LF, BS, tab, CSI K and J, cursor moves and positions; colours and
/// modes are ignored), so a test can read the screen as a braille display reads it, a line at a time.
/// `visibleText` only strips escape sequences; this also applies the backspaces and overwrites, which is
/// where a field echo glued to an announcement shows.
public struct ScreenModel {
    public let columns: Int
    private var rows: [[Character]] = [[]]
    /// Rows the terminal wrapped into when a line ran past the last column.
    private var wrapped: Set<Int> = []
    private var row = 0
    private var column = 0

    public init(columns: Int = 80) {
        self.columns = columns
    }

    public init(_ output: String, columns: Int = 80) {
        self.init(columns: columns)
        feed(output)
    }

    /// The screen's lines, top to bottom, without trailing blanks; trailing empty lines dropped. A row the
    /// terminal wrapped into is joined to the one before: one line per line written, whatever the width.
    public var lines: [String] {
        var lines: [String] = []
        for (index, row) in rows.enumerated() {
            if wrapped.contains(index), let last = lines.popLast() {
                lines.append(last + String(row))
            } else {
                lines.append(String(row))
            }
        }
        lines = lines.map { $0.droppingTrailingSpaces() }
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The rows as the terminal shows them, `columns` wide at most.
    public var rowsShown: [String] { rows.map { String($0).droppingTrailingSpaces() } }

    public mutating func feed(_ output: String) {
        var scalars = output.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar {
            case "\r": column = 0
            case "\n": moveTo(row: row + 1, column: column)
            case "\u{8}": column = max(0, column - 1)
            case "\t": column = min(columns - 1, (column / 8 + 1) * 8)
            case "\u{7}": break
            case "\u{1B}": escape(&scalars)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { break }
                put(Character(scalar))
            }
        }
    }

    private mutating func put(_ character: Character) {
        if column >= columns {
            moveTo(row: row + 1, column: 0)
            wrapped.insert(row)
        }
        while rows[row].count < column { rows[row].append(" ") }
        if column < rows[row].count {
            rows[row][column] = character
        } else {
            rows[row].append(character)
        }
        column += 1
    }

    private mutating func moveTo(row newRow: Int, column newColumn: Int) {
        row = max(0, newRow)
        column = min(max(0, newColumn), columns)
        while rows.count <= row { rows.append([]) }
    }

    private mutating func escape(_ scalars: inout String.UnicodeScalarView.Iterator) {
        switch scalars.next() {
        case "[":
            var parameters = ""
            while let next = scalars.next() {
                guard !(0x40...0x7E).contains(next.value) else {
                    control(String(next), parameters)
                    return
                }
                parameters.unicodeScalars.append(next)
            }
        case "]":
            while let next = scalars.next(), next != "\u{7}" {
                if next == "\u{1B}" {
                    _ = scalars.next()
                    return
                }
            }
        default: return
        }
    }

    private mutating func control(_ final: String, _ parameters: String) {
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        let first = numbers.first.flatMap { $0 } ?? 0
        let count = max(1, first)
        switch final {
        case "A": moveTo(row: row - count, column: column)
        case "B": moveTo(row: row + count, column: column)
        case "C": moveTo(row: row, column: column + count)
        case "D": moveTo(row: row, column: column - count)
        case "E": moveTo(row: row + count, column: 0)
        case "F": moveTo(row: row - count, column: 0)
        case "G": moveTo(row: row, column: count - 1)
        case "H", "f":
            let columnNumber = numbers.count > 1 ? max(1, numbers[1] ?? 1) : 1
            moveTo(row: count - 1, column: columnNumber - 1)
        case "K": eraseInLine(first)
        case "J":
            eraseInLine(first)
            if first == 0 {
                rows.removeSubrange((row + 1)...)
                wrapped = wrapped.filter { $0 <= row }
            }
            if first == 1 { for index in 0..<row { rows[index] = [] } }
            if first == 2 || first == 3 {
                rows = rows.map { _ in [] }
                wrapped = []
            }
            while rows.count <= row { rows.append([]) }
        default: break  // colours (m), modes (h, l) and the rest change no text
        }
    }

    private mutating func eraseInLine(_ mode: Int) {
        switch mode {
        case 0: if column < rows[row].count { rows[row].removeSubrange(column...) }
        case 1:
            for index in 0..<min(column + 1, rows[row].count) { rows[row][index] = " " }
        default: rows[row] = []
        }
        if mode != 0 || column == 0 { wrapped.remove(row) }
    }
}

extension String {
    fileprivate func droppingTrailingSpaces() -> String {
        var text = Substring(self)
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}

extension PseudoTerminalProcess {
    /// The screen as a terminal `columns` wide shows it now, line by line (`ScreenModel`).
    public func screenLines(columns: Int = 80) -> [String] {
        ScreenModel(screen, columns: columns).lines
    }

    /// Waits until the screen's lines satisfy `condition`; false if `deadline` passes first.
    public func waitForScreenLines(
        columns: Int = 80, deadline: Duration, until condition: ([String]) -> Bool
    ) -> Bool {
        let clock = ContinuousClock()
        let end = clock.now + deadline
        while true {
            if condition(screenLines(columns: columns)) { return true }
            guard clock.now < end else { return false }
            usleep(10_000)  // `screen` has just read what there was; look again shortly
        }
    }
}
