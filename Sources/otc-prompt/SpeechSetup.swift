import OTCPromptCore
import OTCPromptSpeech
import OTCPromptTerminal

/// The voice of the prompt, chosen from the options, with the speech log wrapped around it.
struct SpeechSetup {
    let backend: any SpeechBackend
    /// True when announcements are written as lines on the terminal (chosen, or fallen back to).
    let isText: Bool
    /// One-line notices for the user, e.g. that speech fell back to text.
    let notices: [String]

    /// - Throws: `SpeechError` for an unknown voice or missing voice data, `TerminalError` for a
    ///   speech log that cannot be opened; both are usage errors (exit 64).
    init(
        mode: SpeechMode, voice: SpeechOptions, audioFile: String?, terminal: Terminal, logPath: String?,
        elapsed: @escaping () -> Duration
    ) throws {
        var notices: [String] = []
        let textBackend = { TextSpeechBackend(writeLine: { terminal.write($0 + "\r\n") }) }
        var base: any SpeechBackend
        var isText = false
        switch (mode, audioFile) {
        case (.none, nil):
            base = SilentSpeechBackend()
        case (.text, nil):
            base = textBackend()
            isText = true
        case (_, let audioFile):
            let output: SpeechOutput = audioFile.map { .file(path: $0) } ?? .device
            do {
                base = try EspeakSpeechBackend(options: voice, output: output)
            } catch SpeechError.noAudioDevice {
                notices.append("speech unavailable: no audio device; announcements shown as text")
                base = textBackend()
                isText = true
            }
        }
        if let logPath {
            let log = try SpeechLogFile(path: logPath)
            base = LoggedSpeechBackend(wrapping: base) { announcement in
                let (seconds, attoseconds) = elapsed().components
                let milliseconds = Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
                log.append(line: SpeechLogEntry(announcement, milliseconds: milliseconds).jsonLine)
            }
        }
        self.backend = base
        self.isText = isText
        self.notices = notices
    }
}
