/// The audio of the key echoes heard most recently ("9", "deleted 9"), as synthesised, so that a
/// key heard before is played again at once rather than synthesised again: a code repeats its
/// few characters, and synthesis on another thread is where a key's first sound waited longest
/// (docs/performance.md). Bounded by `sampleBudget`; the least recently heard go first.
struct EchoAudioCache {
    /// 128 Ki samples (256 KiB): about 6 s of audio at espeak-ng's 22 050 Hz, ten digits and their
    /// deletions at the default rate, well inside the session's memory target (issue 16).
    static let sampleBudget = 128 * 1024

    private struct Entry {
        var text: String
        var chunks: [[Int16]]
        var samples: Int
    }

    /// Least recently heard first.
    private var entries: [Entry] = []
    private(set) var samples = 0
    private let budget: Int

    init(sampleBudget: Int = Self.sampleBudget) {
        budget = sampleBudget
    }

    /// The chunks `text` was spoken in, and notes it as just heard; nil when they are not kept.
    mutating func audio(for text: String) -> [[Int16]]? {
        guard let index = entries.lastIndex(where: { $0.text == text }) else { return nil }
        let entry = entries.remove(at: index)
        entries.append(entry)
        return entry.chunks
    }

    /// Keeps `chunks`, all of `text`'s audio, making room by forgetting the least recently heard;
    /// audio larger than the whole budget, or none, is not kept.
    mutating func store(_ chunks: [[Int16]], for text: String) {
        let size = chunks.reduce(0) { $0 + $1.count }
        guard size > 0, size <= budget else { return }
        if let index = entries.firstIndex(where: { $0.text == text }) {
            samples -= entries.remove(at: index).samples
        }
        while samples + size > budget, !entries.isEmpty {
            samples -= entries.removeFirst().samples
        }
        entries.append(Entry(text: text, chunks: chunks, samples: size))
        samples += size
    }

    /// Overwrites the kept audio and forgets it: a code's digits, heard, are in it. Copies that
    /// share a chunk's storage (one still in the writer's queue) are not reached, nor the texts;
    /// docs/security.md, "Wiping the code from memory".
    mutating func wipe() {
        for index in entries.indices {
            for chunk in entries[index].chunks.indices {
                entries[index].chunks[chunk].withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            }
        }
        entries.removeAll()
        samples = 0
    }
}
