/// Assembles Unicode scalars from UTF-8 bytes one byte at a time, strictly: overlongs,
/// surrogates, code points past U+10FFFF, stray continuation bytes and C1 bytes are invalid.
///
/// Follows the Unicode "maximal subpart" practice: a byte that cannot continue the scalar being
/// assembled ends it as invalid and must be decoded again on its own, so a truncated character
/// never swallows the key that follows it.
struct UTF8ScalarAssembler: Sendable {
    /// What one byte did to the scalar being assembled.
    enum Step: Equatable, Sendable {
        /// The byte was taken; the scalar needs more bytes.
        case needsMore
        /// The byte completed this scalar.
        case scalar(Unicode.Scalar)
        /// The byte can never start or continue a scalar: it is dropped.
        case invalid
        /// The byte cannot continue the scalar being assembled: the partial scalar is dropped and
        /// the byte was NOT consumed (decode it again from scratch).
        case truncatedBeforeByte
    }

    private var value: UInt32 = 0
    private var remaining = 0
    private var lowerBound: UInt8 = 0x80
    private var upperBound: UInt8 = 0xBF

    /// True between a lead byte and the last continuation byte.
    var isAssembling: Bool { remaining > 0 }

    /// Forgets a partial scalar.
    mutating func reset() { remaining = 0 }

    mutating func consume(_ byte: UInt8) -> Step {
        if remaining > 0 {
            guard byte >= lowerBound, byte <= upperBound else {
                remaining = 0
                return .truncatedBeforeByte
            }
            value = value << 6 | UInt32(byte & 0x3F)
            remaining -= 1
            lowerBound = 0x80
            upperBound = 0xBF
            guard remaining == 0 else { return .needsMore }
            return Unicode.Scalar(value).map(Step.scalar) ?? .invalid
        }
        switch byte {
        case 0x00...0x7F: return .scalar(Unicode.Scalar(byte))
        case 0xC2...0xDF: begin(byte & 0x1F, continuations: 1)
        case 0xE0: begin(byte & 0x0F, continuations: 2, lowerBound: 0xA0)
        case 0xED: begin(byte & 0x0F, continuations: 2, upperBound: 0x9F)  // no surrogates
        case 0xE1...0xEF: begin(byte & 0x0F, continuations: 2)
        case 0xF0: begin(byte & 0x07, continuations: 3, lowerBound: 0x90)
        case 0xF1...0xF3: begin(byte & 0x07, continuations: 3)
        case 0xF4: begin(byte & 0x07, continuations: 3, upperBound: 0x8F)  // not past U+10FFFF
        default: return .invalid  // 0x80–0xC1 (continuations, overlong leads), 0xF5–0xFF
        }
        return .needsMore
    }

    private mutating func begin(
        _ bits: UInt8, continuations: Int, lowerBound: UInt8 = 0x80, upperBound: UInt8 = 0xBF
    ) {
        value = UInt32(bits)
        remaining = continuations
        self.lowerBound = lowerBound
        self.upperBound = upperBound
    }
}
