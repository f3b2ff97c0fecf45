/// What the program must do after the session handled a key.
public enum PromptEffect: Equatable, Sendable {
    case announce(Announcement)
    /// Draw the whole field again from scratch (Ctrl-L, after a resize or a resume).
    case redraw
    /// The user submitted this code: print it and exit 0.
    case submit(String)
    /// The user cancelled: exit 130.
    case cancel
}

/// The prompt's whole behaviour as a pure state machine: keys in, effects out. The program
/// renders `snapshot` after every key; the renderer works out what changed.
///
/// Each key yields at most one announcement (a new one supersedes the one playing, so two would
/// cut each other off). Once the code is submitted or the prompt cancelled, keys do nothing.
public struct PromptSession: Sendable {
    public let configuration: PromptConfiguration
    public private(set) var field: CodeField
    /// The last key was rejected: the screen shows it until the next key.
    public private(set) var isError = false
    /// Submitted or cancelled: the prompt is over.
    public private(set) var isFinished = false
    public let wording: Wording
    private let style: Wording.Style
    /// Set between `.pasteBegan` and `.pasteEnded`.
    private var paste: PasteScanner?

    /// - Parameter isFixedLength: false for a free-text secret (`length` is then a maximum and
    ///   Enter submits whatever is there).
    public init(configuration: PromptConfiguration, isFixedLength: Bool = true) {
        self.configuration = configuration
        self.field = CodeField(
            length: configuration.length, charset: configuration.charset, isFixedLength: isFixedLength)
        self.wording = Wording(language: configuration.language)
        self.style = Wording.Style(configuration)
    }

    /// What to say and show when the prompt appears, or comes back after a stop.
    public mutating func start() -> [PromptEffect] {
        [announce(.prompt, wording.prompt(label: configuration.label, field: field, style: style))]
    }

    /// Applies one key.
    public mutating func handle(_ key: Key) -> [PromptEffect] {
        guard !isFinished else { return [] }
        switch key {
        case .ignored: return []
        case .redraw: return [.redraw]
        default: isError = false
        }
        switch key {
        case .character(let character): return type(character)
        case .backspace: return deleteLast()
        case .clearField:
            field.clear()
            return [announce(.clear, wording.cleared(field: field, style: style))]
        case .readBack: return [announce(.readback, wording.readBack(field: field, style: style))]
        case .submit: return submit()
        case .interrupt, .escape: return cancel()
        case .endOfInput: return field.isEmpty ? cancel() : []
        case .timeLeft: return timeLeft()
        case .pasteBegan:
            paste = PasteScanner(charset: configuration.charset, length: configuration.length)
            return []
        case .pasteText(let text):
            if paste == nil { paste = PasteScanner(charset: configuration.charset, length: configuration.length) }
            paste?.scan(text)
            return []
        case .pasteEnded: return endPaste()
        case .redraw, .ignored: return []
        }
    }

    /// What the screen should show now.
    public var snapshot: FieldSnapshot {
        FieldSnapshot(
            label: configuration.label, characters: field.characters, length: configuration.length,
            mask: configuration.mask, isError: isError)
    }

    /// Overwrites the field (and drops any paste in progress) so the code does not linger once
    /// the prompt is over. See `CodeField.wipe()` for what this cannot reach.
    public mutating func wipe() {
        field.wipe()
        paste = nil
    }

    /// Ctrl-T. Issue 4 (`--timeout`) answers it with the time left; without a timeout it says nothing.
    private func timeLeft() -> [PromptEffect] { [] }

    private mutating func type(_ character: Character) -> [PromptEffect] {
        switch field.append(character) {
        case .accepted(let stored):
            if field.isFixedLength && field.isFull && configuration.autoSubmit {
                return complete(wording.completed(by: stored, field: field, style: style))
            }
            return [announce(.digit, wording.typed(stored, field: field, style: style))]
        case .notAllowed where character == "?":
            return [announce(.help, wording.help(field: field, style: style))]
        case .notAllowed(let rejected):
            return reject(wording.notAllowed(rejected, field: field, style: style))
        case .full:
            return [announce(.full, wording.full(style: style))]
        }
    }

    /// Backspace on an empty field changes nothing, so it is a `reject` ("empty"), not a `delete`.
    private mutating func deleteLast() -> [PromptEffect] {
        guard let deleted = field.deleteLast() else { return reject(wording.nothingToDelete) }
        return [announce(.delete, wording.deleted(deleted, field: field, style: style))]
    }

    private mutating func submit() -> [PromptEffect] {
        guard field.isComplete else {
            return [announce(.incomplete, wording.incomplete(field: field, style: style))]
        }
        return complete(wording.completed(field: field, style: style))
    }

    private mutating func complete(_ text: String) -> [PromptEffect] {
        isFinished = true
        return [announce(.complete, text), .submit(field.value)]
    }

    private mutating func cancel() -> [PromptEffect] {
        isFinished = true
        return [announce(.cancel, wording.cancelled), .cancel]
    }

    private mutating func reject(_ text: String) -> [PromptEffect] {
        isError = true
        return [announce(.reject, text)]
    }

    /// One announcement for the whole paste; a paste that completes the field submits it
    /// (auto-submit) with the `complete` announcement alone. A code found in a message, or a
    /// paste that is a whole code by itself, replaces the field; a shorter paste is appended.
    private mutating func endPaste() -> [PromptEffect] {
        guard let scanner = paste else { return [] }
        paste = nil
        let offset: Int
        let accepted: [Character]
        let extracted: Bool
        var overflowed = false
        switch scanner.result {
        case .rejected:
            return reject(wording.pasteRejected(field: field))
        case .characters(let characters) where field.isFixedLength && characters.count == field.length:
            // A whole code: it replaces what was typed rather than being appended to it, so
            // pasting the code over a half-typed one never submits a mix of the two.
            offset = 0
            accepted = field.replace(with: characters)
            extracted = false
        case .characters(let characters):
            if characters.isEmpty { return reject(wording.nothingPasted) }
            if field.isFull { return [announce(.full, wording.full(style: style))] }
            offset = field.count
            accepted = field.append(contentsOf: characters)
            overflowed = accepted.count < characters.count
            extracted = false
        case .extracted(let characters):
            offset = 0
            accepted = field.replace(with: characters)
            extracted = true
        }
        if field.isFixedLength && field.isFull && configuration.autoSubmit {
            return complete(
                wording.pasteCompleted(accepted, offset: offset, extracted: extracted, field: field, style: style))
        }
        let text = wording.pasted(
            accepted, offset: offset, extracted: extracted, overflowed: overflowed, field: field, style: style)
        return [announce(.paste, text)]
    }

    private func announce(_ event: Announcement.Event, _ text: String) -> PromptEffect {
        .announce(Announcement(event, text))
    }
}
