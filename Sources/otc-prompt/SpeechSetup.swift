import OTCPromptCore
import OTCPromptSpeech
import OTCPromptSpeechDispatcher
import OTCPromptTerminal

/// The voice of the prompt, for the route chosen (`SpeechRoute`), with the speech log wrapped around it.
struct SpeechSetup {
    let backend: any SpeechBackend
    /// True when announcements are written as lines on the terminal (chosen, or fallen back to).
    let isText: Bool
    /// One-line notices for the user, e.g. that speech fell back to text.
    let notices: [String]
    /// Silences speech that would outlive the process (speech-dispatcher's), for a signal's exit.
    let cancel: () -> Void

    /// Starts espeak-ng when the route calls for it (or an audio file is asked for), so that it initialises
    /// while the terminal is being set up; `init` waits for it.
    /// - Throws: `TerminalError` when the audio file cannot be opened (`OutputFile`'s rules).
    static func startEngine(route: SpeechRoute, voice: SpeechOptions, audioFile: String?) throws(TerminalError)
        -> EspeakSpeechBackend?
    {
        guard route.kind == .espeak || audioFile != nil else { return nil }
        var output = SpeechOutput.device
        if let audioFile {
            let file = try OutputFile.open(path: audioFile, option: "--audio-file", appending: false)
            output = .file(descriptor: file.descriptor, isRegularFile: file.isRegularFile, path: audioFile)
        }
        return EspeakSpeechBackend.start(options: voice, output: output)
    }

    /// - Parameters:
    ///   - engine: what `startEngine` returned for `route`, `voice` and `audioFile`.
    ///   - voiceLocation: "file:line" when the voice comes from the configuration file: a voice that is not
    ///     installed then falls back to the language's voice, with a notice.
    /// - Throws: `SpeechError` for an unknown voice named on the command line, missing voice data or an audio
    ///   file that cannot be written, `TerminalError` for a speech log that cannot be opened; all usage errors (64).
    init(
        engine: EspeakSpeechBackend?, route: SpeechRoute, voice: SpeechOptions, voiceLocation: String?,
        audioFile: String?, terminal: Terminal, environment: [String: String], logPath: String?,
        elapsed: @escaping () -> Duration
    ) throws {
        var notices: [String] = []
        var chosen: Chosen
        if route.kind == .speechd && audioFile == nil {
            chosen = Self.speechDispatcher(
                voice: voice, autospawn: route.autospawn, terminal: terminal, environment: environment)
        } else {
            chosen = try Self.chooseBackend(engine: engine, route: route, terminal: terminal)
            if case .unknownVoice(let name) = chosen.error, let voiceLocation {
                var fallback = voice
                fallback.voice = nil
                let engine = try Self.startEngine(route: route, voice: fallback, audioFile: audioFile)
                chosen = try Self.chooseBackend(engine: engine, route: route, terminal: terminal)
                notices.append(
                    "\(voiceLocation): voice '\(name)' is not installed; using \(fallback.voiceName) "
                        + "(espeak-ng --voices lists the voices)")
            }
            if let error = chosen.error { throw error }
        }
        let dispatcher = chosen.backend as? SpeechDispatcherBackend
        cancel = { dispatcher?.cancel() }
        isText = chosen.isText
        notices += chosen.notice.map { [$0] } ?? []
        self.notices = notices
        if let logPath {
            let log = try SpeechLogFile(path: logPath)
            var logFailed = false
            // The first line says which way speech went: the route chosen, or the text it fell back to.
            var speechNote: String? =
                chosen.isText && route.kind != .text
                ? "text: \(notices.last ?? "fallback")"
                : "\(route.kind.rawValue): \(route.reason)"
            backend = LoggedSpeechBackend(wrapping: chosen.backend) { announcement in
                let (seconds, attoseconds) = elapsed().components
                let milliseconds = Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
                var entry = SpeechLogEntry(announcement, milliseconds: milliseconds)
                entry.speech = speechNote
                speechNote = nil
                // A log that cannot be written is said once, on the screen, and then no longer tried.
                guard !logFailed, !log.append(line: entry.jsonLine) else { return }
                logFailed = true
                terminal.writeLine(
                    "otc-prompt: the speech log \(logPath) cannot be written (\(log.failure ?? "write failed")); "
                        + "nothing more is logged")
            }
        } else {
            backend = chosen.backend
        }
    }

    typealias Chosen = (backend: any SpeechBackend, isText: Bool, notice: String?, error: SpeechError?)

    /// The user's speech-dispatcher, with text lines as its fallback; text lines when none answers.
    private static func speechDispatcher(
        voice: SpeechOptions, autospawn: Bool, terminal: Terminal, environment: [String: String]
    ) -> Chosen {
        let text = TextSpeechBackend(writeLine: { terminal.write($0 + "\r\n") })
        let options = SpeechDispatcherOptions(
            language: voice.languageIsChosen ? voice.language : nil, voice: voice.voice, rate: voice.rate,
            autospawn: autospawn)
        do {
            let backend = try SpeechDispatcherBackend(
                options: options, fallback: text, environment: environment, user: UserAccount.current)
            return (backend, false, nil, nil)
        } catch {
            return (text, true, "\(error); announcements shown as text", nil)
        }
    }

    /// espeak-ng when it started; text lines when there is no audio device; else why speech cannot start.
    private static func chooseBackend(
        engine: EspeakSpeechBackend?, route: SpeechRoute, terminal: Terminal
    ) throws -> Chosen {
        let text = TextSpeechBackend(writeLine: { terminal.write($0 + "\r\n") })
        guard let engine else {
            return route.kind == .text ? (text, true, nil, nil) : (SilentSpeechBackend(), false, nil, nil)
        }
        let ready = Result { () throws(SpeechError) in try engine.waitUntilReady() }
        switch ready {
        case .success:
            return (engine, false, nil, nil)
        case .failure(.noAudioDevice):
            return (text, true, SpeechError.noAudioDevice("").description, nil)
        case .failure(let error):
            return (SilentSpeechBackend(), false, nil, error)
        }
    }
}
