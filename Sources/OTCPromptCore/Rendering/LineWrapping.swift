/// Long lines broken at spaces to fit the terminal, so a braille display or a screen reader reads
/// whole words, never a fingerprint cut in two by the terminal's own wrap.
public enum LineWrapping {
    /// `line` broken into lines of at most `width` columns (one column per character), at spaces
    /// where it can be; a word longer than `width` is cut. Nil or tiny widths leave it whole.
    public static func wrap(_ line: String, width: Int?) -> String {
        guard let width, width >= 10, line.count > width else { return line }
        var lines: [String] = []
        var current = ""
        for word in line.split(separator: " ", omittingEmptySubsequences: true) {
            var word = Substring(word)
            if !current.isEmpty, current.count + 1 + word.count > width {
                lines.append(current)
                current = ""
            }
            while word.count > width {
                if !current.isEmpty {
                    lines.append(current)
                    current = ""
                }
                lines.append(String(word.prefix(width)))
                word = word.dropFirst(width)
            }
            current += current.isEmpty ? String(word) : " " + word
        }
        if !current.isEmpty { lines.append(current) }
        return lines.joined(separator: "\n")
    }
}
