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
/// STUB: replaced by the full session.
public struct PromptSession: Sendable {
    public let configuration: PromptConfiguration
    public private(set) var field: CodeField

    public init(configuration: PromptConfiguration) {
        self.configuration = configuration
        self.field = CodeField(length: configuration.length, charset: configuration.charset)
    }

    /// What to say and show when the prompt appears.
    public mutating func start() -> [PromptEffect] { [] }

    /// Applies one key.
    public mutating func handle(_ key: Key) -> [PromptEffect] {
        switch key {
        case .character(let c): _ = field.append(c)
        case .submit: return [.submit(field.value)]
        case .interrupt: return [.cancel]
        default: break
        }
        return []
    }

    /// What the screen should show now.
    public var snapshot: FieldSnapshot {
        FieldSnapshot(
            label: configuration.label, characters: field.characters, length: configuration.length,
            mask: configuration.mask, isError: false)
    }
}
