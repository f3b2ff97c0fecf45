/// What `--stdin` makes of its one line of input.
public enum StandardInputLine {
    /// The code in `line`, found as a paste would be (the whole line if it is exactly one code,
    /// else the one standalone code in a message); for `--charset any`, the whole line as a
    /// free-text secret, as the interactive field takes it: 1 to `freeTextMaxLength` printable
    /// characters, spaces kept. nil: nothing valid to print.
    public static func code(in line: String, charset: CodeCharset, length: Int) -> [Character]? {
        if charset == .any {
            let characters = Array(line)
            guard !characters.isEmpty, characters.count <= PromptConfiguration.freeTextMaxLength,
                characters.allSatisfy({ charset.accept($0) != nil })
            else { return nil }
            return characters
        }
        var scanner = PasteScanner(charset: charset, length: length)
        scanner.scan(line)
        switch scanner.result {
        case .characters(let characters) where characters.count == length && !scanner.overflowed:
            return characters
        case .extracted(let characters):
            return characters
        default:
            return nil
        }
    }

    /// The one line `--stdin` prints when `code(in:charset:length:)` finds nothing.
    public static func problem(charset: CodeCharset, length: Int) -> String {
        switch charset {
        case .any:
            "standard input holds no valid secret (1 to \(PromptConfiguration.freeTextMaxLength) printable characters on one line); nothing printed"
        case .digits: "standard input holds no valid \(length)-digit code; nothing printed"
        case .alnum: "standard input holds no valid \(length)-character code; nothing printed"
        }
    }
}
