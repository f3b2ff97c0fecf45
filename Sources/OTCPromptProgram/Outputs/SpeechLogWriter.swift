import OTCPromptCore
import OTCPromptHost

/// The `--speech-log` file as the prompt writes it: one JSON line per announcement, the first carrying the note that
/// says which way speech went, and a second line once the voice has done with it: when it began to be heard and
/// whether it was heard to its end or cut, and by what (`SpeechLogOutcome`). That is known only later: it is asked of
/// the voice (`SpeechBackend.progress`) when the next announcement is logged, and when the prompt's last words have
/// played (`voiceDone`), so the log stays append-only and a crash loses no line said. While the voice is still
/// starting, the way is not known yet (the automatic choice, a fallback to text): the lines are held, with the times
/// they were made, and written the moment it is known, at most the start-up's deadline later.
final class SpeechLogWriter: Announcing {
    private enum Line {
        case said(SpeechLogEntry)
        case outcome(SpeechLogOutcome)
    }

    private let file: SpeechLogFile
    private let elapsed: () -> Duration
    /// The note for the next line written; nil once written.
    private var note: String?
    /// Lines made while the way is not known yet; nil once it is.
    private var held: [Line]?
    /// Told once, with why, when a line cannot be written; nothing more is logged after it.
    private let failed: (String) -> Void
    private var hasFailed = false
    /// Where announcements are heard, asked how far it got; nil: nowhere (no outcome is logged).
    var voice: (any SpeechBackend)?
    /// Announcements logged so far.
    private var count = 0
    /// The newest announcement logged whose outcome is not: its number, its time, and the voice's count before it
    /// was given.
    private var open: (number: Int, milliseconds: Int, voiceCountBefore: UInt64?)?

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

    /// Logs `announcement` now, or holds it until `settle`; the one before it ends here, cut if still heard.
    func say(_ announcement: Announcement) {
        let now = (MonotonicInstant.now, Self.milliseconds(elapsed()))
        let voiceCount = endOpen(by: announcement.event.rawValue, now: now)
        count += 1
        open = (count, now.1, voiceCount)
        var entry = SpeechLogEntry(announcement, milliseconds: now.1)
        entry.number = count
        add(.said(entry))
    }

    /// A log is never still saying anything: the voice it logs is asked (`voice`).
    var isSpeaking: Bool { false }
    /// Nothing at the line's end: the last outcome is logged once the last words have played (`voiceDone`).
    func end() {}
    /// The file closes when the writer goes (`SpeechLogFile`'s deinit).
    func close() {}

    /// The prompt's last words have played, or were given up: the last announcement's outcome.
    func voiceDone() {
        _ = endOpen(by: "end", now: (MonotonicInstant.now, Self.milliseconds(elapsed())))
        open = nil
    }

    /// Logs how the open announcement went, judged now, `by` what comes next; returns the voice's count.
    private func endOpen(by next: String, now: (MonotonicInstant, Int)) -> UInt64? {
        // A voice that says nothing of how it went (none, one still starting) logs no outcome.
        guard let voice, let progress = voice.progress else { return nil }
        defer { open = nil }
        guard let open else { return progress.number }
        // Not given to the voice (held while it started): nothing of it was heard.
        let given = progress.number != open.voiceCountBefore
        let speaking = voice.isSpeaking
        var began = given ? progress.began.map { Self.milliseconds(at: $0, now: now) } : nil
        var ended = (!speaking ? progress.heardBy : nil).map { min(now.1, Self.milliseconds(at: $0, now: now)) }
        if given, progress.heardWhenGiven { (began, ended) = (open.milliseconds, open.milliseconds) }
        add(
            .outcome(
                SpeechLogOutcome(
                    of: open.number, began: began, cutBy: speaking ? next : nil, milliseconds: ended ?? now.1)))
        return progress.number
    }

    /// The way speech went is known: the held lines are written, the first with `note`.
    func settle(note: String) {
        guard let lines = held else { return }
        held = nil
        self.note = note
        for line in lines { write(line) }
    }

    private func add(_ line: Line) {
        if held != nil { held?.append(line) } else { write(line) }
    }

    private func write(_ line: Line) {
        guard !hasFailed else { return }
        let text: String
        switch line {
        case .said(var entry):
            entry.speech = note
            note = nil
            text = entry.jsonLine
        case .outcome(let outcome): text = outcome.jsonLine
        }
        guard !file.append(line: text) else { return }
        hasFailed = true
        failed(file.failure ?? "write failed")
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }

    /// `instant` in the log's milliseconds, given the instant and milliseconds of now.
    private static func milliseconds(at nanoseconds: Int64, now: (MonotonicInstant, Int)) -> Int {
        now.1 - Int((now.0.nanoseconds - nanoseconds) / 1_000_000)
    }
}

/// The speech log, where `--speech-log` names one: made with the voice (`SpeechSetup`), which tells it the way
/// speech went once that is known.
extension SpeechLogWriter: PromptOutput {
    static func make(at place: OutputPlace) -> (any SessionOutput)? { place.speech.log }
}
