/// A paste into a free-text field, taken as it is: a password's spaces, dashes and dots are part
/// of it, so the code normalisation of `PasteScanner` must not touch it. Only the line break a
/// copied line ends with is dropped; any other control character rejects the paste, because
/// silently dropping it would submit a secret that is not the one copied.
struct PastedText: Sendable {
    let charset: CodeCharset
    /// How many characters the field can take; one more is kept to notice an overflow.
    let room: Int
    private var kept: [Character] = []
    /// Line breaks seen after the last kept character: dropped if the paste ends with them.
    private var pendingLineBreaks: [Character] = []
    private var hasControlCharacter = false

    init(charset: CodeCharset, room: Int) {
        self.charset = charset
        self.room = room
    }

    mutating func scan(_ text: String) {
        for character in text {
            guard kept.count <= room else { return }
            if character.isNewline {
                pendingLineBreaks.append(character)
                continue
            }
            if !pendingLineBreaks.isEmpty {
                // A line break inside the paste: several lines are not one secret.
                hasControlCharacter = true
                pendingLineBreaks.removeAll()
            }
            if charset.accept(character) == nil { hasControlCharacter = true }
            kept.append(character)
        }
    }

    /// `.characters` (at most `room + 1`, so the field can tell that some did not fit) or `.rejected`.
    var result: PasteResult {
        hasControlCharacter ? .rejected : .characters(kept)
    }

    /// Overwrites what was kept, as `CodeField.wipe()` does.
    mutating func wipe() {
        kept.withUnsafeMutableBufferPointer { storage in
            for index in storage.indices { storage[index] = "\u{0}" }
        }
        kept.removeAll()
    }
}

/// A paste being read: a code's through `PasteScanner` (normalised, a code found in a message),
/// free text's as it is (`PastedText`).
enum PasteInProgress: Sendable {
    case code(PasteScanner)
    case text(PastedText)

    /// Each case's value is taken out before it changes, so its storage is not shared and is
    /// changed in place (a copy would leave pasted characters behind in the old buffer).
    mutating func scan(_ text: String) {
        switch take() {
        case .code(var scanner):
            scanner.scan(text)
            self = .code(scanner)
        case .text(var pasted):
            pasted.scan(text)
            self = .text(pasted)
        }
    }

    var result: PasteResult {
        switch self {
        case .code(let scanner): scanner.result
        case .text(let pasted): pasted.result
        }
    }

    /// A code paste held more allowed characters than the field (`.characters` was cut short).
    var overflowed: Bool {
        if case .code(let scanner) = self { return scanner.overflowed }
        return false
    }

    mutating func wipe() {
        guard case .text(var pasted) = take() else { return }
        pasted.wipe()
        self = .text(pasted)
    }

    /// The current value, leaving an empty placeholder behind.
    private mutating func take() -> PasteInProgress {
        let current = self
        self = .text(PastedText(charset: .any, room: 0))
        return current
    }
}

extension PromptSession {
    func newPaste() -> PasteInProgress {
        guard field.kind == .code else {
            return .text(PastedText(charset: configuration.charset, room: field.remaining))
        }
        return .code(PasteScanner(charset: configuration.charset, length: configuration.length))
    }
}
