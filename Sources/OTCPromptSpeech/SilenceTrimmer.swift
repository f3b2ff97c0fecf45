/// Drops an utterance's leading and trailing silence (espeak-ng ends each one with ~0.3 s of it),
/// so a listener hears the next key at once and the readback is no longer than its words.
///
/// Silence inside the utterance is kept: quiet samples are held back until speech resumes.
struct SilenceTrimmer {
    /// Samples at or below this magnitude count as silence (about -60 dBFS).
    static let threshold: Int16 = 32

    private var heard = false
    private var held: [Int16] = []

    /// The samples of `chunk` that can be played now.
    mutating func audible(in chunk: UnsafeBufferPointer<Int16>) -> [Int16] {
        guard let last = chunk.lastIndex(where: { abs(Int32($0)) > Int32(Self.threshold) }) else {
            if heard { held.append(contentsOf: chunk) }
            return []
        }
        var output: [Int16]
        if heard {
            output = held
            output.append(contentsOf: chunk[...last])
        } else {
            let first = chunk.firstIndex(where: { abs(Int32($0)) > Int32(Self.threshold) })!
            output = Array(chunk[first...last])
            heard = true
        }
        held = Array(chunk[(last + 1)...])
        return output
    }
}
