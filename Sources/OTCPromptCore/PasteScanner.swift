/// What a finished paste contributes to the field.
public enum PasteResult: Equatable, Sendable {
    /// Once normalised, the whole paste was allowed characters: these, at most `length` of them.
    case characters([Character])
    /// The paste was a message with exactly one standalone run of `length` allowed characters
    /// (an SMS such as "Your code is G-123456."): that run.
    case extracted([Character])
    /// Neither: the field stays unchanged.
    case rejected
}

/// Streams a bracketed paste through in bounded memory and linear time, and decides what it
/// contributes to the field once it ends.
///
/// STUB: replaced by the full scanner.
public struct PasteScanner: Sendable {
    public let charset: CodeCharset
    public let length: Int
    private var kept: [Character] = []

    public init(charset: CodeCharset, length: Int) {
        self.charset = charset
        self.length = length
    }

    /// Scans the next piece of the paste.
    public mutating func scan(_ text: String) {
        kept += text.compactMap(charset.accept)
    }

    /// The verdict on everything scanned so far.
    public var result: PasteResult { .characters(Array(kept.prefix(length))) }
}
