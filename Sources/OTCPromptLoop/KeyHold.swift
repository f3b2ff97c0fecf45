import OTCPromptCore

/// Keys held until what they would reach has been heard (`TypeAheadRule.heldUntilHeard`): a prompt's own
/// (`HeldKeys`), or one that spans prompts and is decided outside them (the password agent's, by its model).
public protocol KeyHold {
    /// Whether keys are still held, or a count of those dropped is still to be said.
    var isHolding: Bool { get }
    /// The keys of a read at `time` (since the prompt began): those that go on to the prompt, none while held.
    mutating func take(_ keys: [Key], at time: Duration) -> [Key]
    /// At `now`, with the voice `speaking` or not: nil while the hold goes on; once it ends, how many keys it
    /// dropped (said when more than none).
    mutating func release(at now: Duration, speaking: Bool) -> Int?
    /// When the prompt must look again (nil once released).
    func deadline(at now: Duration, speaking: Bool) -> Duration?
}

extension HeldKeys: KeyHold {}
