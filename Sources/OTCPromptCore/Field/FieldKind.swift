/// What the field holds: a code of exactly `length` characters, or free text of at most `length`
/// (an askpass password or user name, a card PIN), which Enter submits.
public enum FieldKind: Equatable, Sendable {
    /// Exactly `length` characters: grouped when spoken, submitted as soon as it is full.
    case code
    /// Up to `length` characters: any number from one, submitted with Enter.
    case freeText
}
