/// Turns raw terminal bytes into `Key`s. Pure and incremental: bytes may arrive split across
/// reads at any point (inside a UTF-8 character, an escape sequence or a paste marker).
///
/// STUB: replaced by the full decoder.
public struct KeyDecoder: Sendable {
    public init() {}

    /// Decodes `bytes`, returning every key they complete. Bytes that may begin a longer
    /// sequence are held until the next call.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Key] {
        bytes.map { .character(Character(Unicode.Scalar($0))) }
    }

    /// True while a lone Esc, or an escape sequence that is not yet complete, is held. The caller
    /// waits the Esc delay for more bytes and calls `flush()` if none arrive.
    public var isAwaitingMoreBytes: Bool { false }

    /// Gives up waiting: a held lone Esc becomes `.escape`, a truncated sequence `.ignored`.
    public mutating func flush() -> [Key] { [] }
}
