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
}
