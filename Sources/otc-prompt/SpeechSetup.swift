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
        let chosen = try Self.chooseBackend(mode: mode, voice: voice, audioFile: audioFile, terminal: terminal)
        isText = chosen.isText
        notices = chosen.notice.map { [$0] } ?? []
        if let logPath {
            let log = try SpeechLogFile(path: logPath)
            backend = LoggedSpeechBackend(wrapping: chosen.backend) { announcement in
                let (seconds, attoseconds) = elapsed().components
                let milliseconds = Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
                log.append(line: SpeechLogEntry(announcement, milliseconds: milliseconds).jsonLine)
            }
        } else {
            backend = chosen.backend
        }
    }

    /// espeak-ng for `--speech espeak` or `--audio-file`; text lines when there is no audio device.
    private static func chooseBackend(
        mode: SpeechMode, voice: SpeechOptions, audioFile: String?, terminal: Terminal
    ) throws -> (backend: any SpeechBackend, isText: Bool, notice: String?) {
        let text = TextSpeechBackend(writeLine: { terminal.write($0 + "\r\n") })
        if audioFile == nil {
            switch mode {
            case .none: return (SilentSpeechBackend(), false, nil)
            case .text: return (text, true, nil)
            case .espeak: break
            }
        }
        let output: SpeechOutput = audioFile.map { .file(path: $0) } ?? .device
        let result: Result<EspeakSpeechBackend, SpeechError> = Result { () throws(SpeechError) in
            try EspeakSpeechBackend(options: voice, output: output)
        }
        switch result {
        case .success(let espeak):
            return (espeak, false, nil)
        case .failure(.noAudioDevice):
            return (text, true, "speech unavailable: no audio device; announcements shown as text")
        case .failure(let error):
            throw error
        }
    }
}
