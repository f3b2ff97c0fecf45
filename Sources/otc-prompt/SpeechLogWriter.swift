import OTCPromptCore
import OTCPromptTerminal

/// The `--speech-log` file as the prompt writes it: one JSON line per announcement, the first
/// carrying the note that says which way speech went. While the voice is still starting, that way
/// is not known yet (the automatic choice, a fallback to text): the lines are held, with the times
/// they were made, and written the moment it is known, at most the start-up's deadline later.
final class SpeechLogWriter {
    private let file: SpeechLogFile
    private let elapsed: () -> Duration
    /// The note for the next line written; nil once written.
    private var note: String?
    /// Lines made while the way is not known yet; nil once it is.
    private var held: [SpeechLogEntry]?

    /// - Parameter note: which way speech goes, or nil while the voice is still starting.
    init(file: SpeechLogFile, note: String?, elapsed: @escaping () -> Duration) {
        self.file = file
        self.elapsed = elapsed
        self.note = note
        held = note == nil ? [] : nil
    }

    /// Logs `announcement` now, or holds it until `settle`.
    func record(_ announcement: Announcement) {
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
        var entry = entry
        entry.speech = note
        note = nil
        file.append(line: entry.jsonLine)
    }
}
