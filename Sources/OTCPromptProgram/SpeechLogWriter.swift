import OTCPromptCore
import OTCPromptHost

/// The `--speech-log` file as the prompt writes it: one JSON line per announcement, the first
/// carrying the note that says which way speech went. While the voice is still starting, that way
/// is not known yet (the automatic choice, a fallback to text): the lines are held, with the times
/// they were made, and written the moment it is known, at most the start-up's deadline later.
final class SpeechLogWriter: SessionOutput {
    private let file: SpeechLogFile
    private let elapsed: () -> Duration
    /// The note for the next line written; nil once written.
    private var note: String?
    /// Lines made while the way is not known yet; nil once it is.
    private var held: [SpeechLogEntry]?
    /// Told once, with why, when a line cannot be written; nothing more is logged after it.
    private let failed: (String) -> Void
    private var hasFailed = false

    /// - Parameters:
    ///   - note: which way speech goes, or nil while the voice is still starting.
    ///   - failed: says on the screen that the log cannot be written (a full disk, `/dev/full`).
    init(
        file: SpeechLogFile, note: String?, elapsed: @escaping () -> Duration,
        failed: @escaping (String) -> Void
    ) {
        self.file = file
        self.elapsed = elapsed
        self.failed = failed
        self.note = note
        held = note == nil ? [] : nil
    }

    /// Logs `announcement` now, or holds it until `settle`.
    func say(_ announcement: Announcement) {
        let (seconds, attoseconds) = elapsed().components
        let milliseconds = Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
        let entry = SpeechLogEntry(announcement, milliseconds: milliseconds)
        if held != nil { held?.append(entry) } else { write(entry) }
    }

    /// The way speech went is known: the held lines are written, the first with `note`.
    func settle(note: String) {
        guard let lines = held else { return }
        held = nil
        self.note = note
        for entry in lines { write(entry) }
    }

    private func write(_ entry: SpeechLogEntry) {
        guard !hasFailed else { return }
        var entry = entry
        entry.speech = note
        note = nil
        guard !file.append(line: entry.jsonLine) else { return }
        hasFailed = true
        failed(file.failure ?? "write failed")
    }
}
