import OTCPromptCore

/// Keeps the first line a check command writes to stderr, bounded, and made safe to show and speak.
///
/// The rest of stderr is read and dropped, so a chatty command never blocks on a full pipe.
struct CheckErrorLine {
    /// Enough for "oathtool: invalid OTP" and its like; a longer line is cut.
    static let limit = 200

    private var bytes: [UInt8] = []
    private var lineEnded = false

    mutating func append<Bytes: Collection>(_ chunk: Bytes) where Bytes.Element == UInt8 {
        guard !lineEnded else { return }
        for byte in chunk {
            if byte == UInt8(ascii: "\n") {
                // Blank leading lines say nothing; wait for one with words.
                if text(of: bytes).isEmpty {
                    bytes.removeAll()
                    continue
                }
                lineEnded = true
                return
            }
            if bytes.count < Self.limit { bytes.append(byte) }
        }
    }

    /// The line made visible (`UntrustedText`: no escape sequence reaches the terminal raw), without surrounding blanks;
    /// nil when there is none.
    var line: String? {
        let text = text(of: bytes)
        return text.isEmpty ? nil : text
    }

    private func text(of bytes: [UInt8]) -> String {
        var text = Substring(UntrustedText.visible(String(decoding: bytes, as: UTF8.self)))
        // A line cut inside a character ends in U+FFFD: drop it rather than speak "replacement character".
        while let last = text.last, last.isWhitespace || last == "\u{FFFD}" { text.removeLast() }
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        return String(text)
    }
}
