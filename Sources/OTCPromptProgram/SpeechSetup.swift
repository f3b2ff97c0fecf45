import OTCPromptCore
import OTCPromptHost
import OTCPromptLoop
import OTCPromptSettings
import OTCPromptSpeech
import OTCPromptSpeechDispatcher
import OTCPromptTerminal

/// The voice of the prompt, and the speech log beside it. Nothing here waits on an outside
/// component: the files are opened without waiting (`OutputFile`), and a voice that has to start
/// (espeak-ng, speech-dispatcher, the automatic choice's probes) starts beside the prompt
/// (`VoiceStartup`), its announcements held until it is ready.
struct SpeechSetup {
    /// Where announcements are said: the voice (its announcements held until it is ready) with its switch to
    /// text lines, the text lines alone, or nothing.
    let voice: any SpeechBackend
    /// The `--speech-log` file, an output of its own beside the voice.
    let log: SpeechLogWriter?
    /// The voice still starting; nil when the way was known at once (text, none).
    let startup: VoiceStartup?
    /// The one switch to text lines when the voice fails or is not there; nil when there is no voice.
    let fallback: SpeechFallback?
    /// True when announcements are text lines from the start (`--speech text`, SSH with no audio).
    let isText: Bool
    /// The text lines on the terminal: the announcements' way when `isText`, and the voice's switch when it fails.
    let textLines: any SpeechBackend

    /// - Parameters:
    ///   - location: where the person typing on `terminal` is (its login session).
    ///   - releaseAfterSilence: espeak-ng lets its device go after a silence, and says so (see
    ///     `EspeakSpeechBackend.start`); nil keeps it for the whole prompt.
    ///   - speculates: espeak-ng starts while `auto` still probes, in case it is chosen (false: only once chosen).
    ///   - cue: the PC speaker's tones when the question is shown as text lines, with no voice (`BootCue`).
    /// - Throws: `HostError` when the audio file or the speech log cannot be opened (usage errors, 64).
    init(
        choice: SpeechChoice, voice: SpeechOptions, voiceLocation: String?, audioFile: String?, terminal: Terminal,
        location: SessionLocation, environment: [String: String], logPath: String?, memory: AskMemory,
        releaseAfterSilence: DeviceRelease? = nil, speculates: Bool = true, cue: BootCue? = nil,
        elapsed: @escaping () -> Duration
    ) throws(HostError) {
        let place = SpeechRouteProbes.PromptTerminal.located(location)
        let decided = SpeechRouteProbes.decidedAtOnce(
            for: choice, intoAudioFile: audioFile != nil, environment: environment, terminal: place)
        var output = SpeechOutput.device
        if let audioFile {
            let file = try OutputFile.open(path: audioFile, option: "--audio-file", appending: false)
            let writer = AudioFileWriter(patience: file.patience) { file.write($0)?.rawValue }
            output = .file(
                descriptor: file.descriptor, isRegularFile: file.isRegularFile, path: audioFile, writer: writer)
        }
        let log = try logPath.map { path throws(HostError) in try SpeechLogFile(path: path) }
        let text = TextLinesOutput.writer(on: terminal, cue: cue)
        textLines = text
        // A log that cannot be written is said once, on the screen, and then no longer tried.
        let logFailed = { (why: String) -> Void in
            terminal.writeLine(
                "otc-prompt: the speech log \(logPath ?? "") cannot be written (\(why)); nothing more is logged")
        }
        let voiceless = decided.flatMap { $0.kind == .text || $0.kind == .none ? $0 : nil }
        if let route = voiceless {
            startup = nil
            fallback = nil
            isText = route.kind == .text
            self.voice = isText ? text : SilentSpeechBackend()
            self.log = log.map {
                SpeechLogWriter(
                    file: $0, note: "\(route.kind.rawValue): \(route.reason)", elapsed: elapsed, failed: logFailed)
            }
            self.log?.voice = self.voice
            return
        }
        // espeak-ng starts now, so it gains the time the rest takes: at once when it is sure to be used,
        // muted while `auto` still probes (unmuted the moment espeak-ng is chosen, dropped otherwise).
        let speculative = decided == nil && speculates
        let engine =
            decided?.kind == .espeak || speculative
            ? EspeakSpeechBackend.start(
                options: voice, output: output, muted: speculative, releaseAfterSilence: releaseAfterSilence) : nil
        let writer = log.map { SpeechLogWriter(file: $0, note: nil, elapsed: elapsed, failed: logFailed) }
        let start = VoiceStart(
            voice: voice, voiceLocation: voiceLocation, output: output, environment: environment,
            releaseAfterSilence: releaseAfterSilence)
        let startup: VoiceStartup?
        var startFailure: HostError?
        do {
            startup = try VoiceStartup(
                route: decided,
                choose: { SpeechRouteProbes.route(for: choice, environment: environment, terminal: place) },
                engine: engine, start: start, log: writer, memory: memory)
        } catch {
            // No thread or pipe for the start-up (a session at its task limit, no descriptor left): text lines,
            // said as a voice that cannot start is, rather than no prompt at all.
            engine?.finish(timeout: .zero)
            startup = nil
            startFailure = error
        }
        self.startup = startup
        isText = false
        var why = "the voice cannot start"
        if case .system(let errno, let call) = startFailure { why = "\(call) failed: \(errno)" }
        let unavailable = UnavailableVoice(.libraryUnavailable(problem: why))
        let fallback = SpeechFallback(
            voice: startup?.held ?? unavailable, text: text, wording: Wording(language: voice.language),
            isFirstTime: memory.isFirstTimeThisSession)
        self.fallback = fallback
        self.voice = fallback
        self.log = writer
        writer?.voice = fallback
    }

    /// After the prompt: lets the last words play (bounded by `limit`), a voice still starting waited
    /// for first, at most `startupGrace`; a signal meanwhile ends the prompt as that signal. A prompt
    /// ended by a signal or by its caller's going ends at once.
    func finish(after outcome: PromptOutcome, terminal: Terminal, startupGrace: Duration, limit: Duration)
        -> PromptOutcome
    {
        switch outcome {
        case .signalled, .callerGone:
            // Ended from outside: no last words are waited for (a gone caller's user is elsewhere).
            startup?.abandon()
            startup?.dispatcher?.cancel()
            log?.voiceDone()
            return outcome
        default: break
        }
        let start = MonotonicInstant.now
        if let startup {
            switch startup.waitAfterPrompt(timeout: min(startupGrace, limit), signals: terminal.signalWatcher) {
            case .signal(let signal): return .signalled(signal)
            case .outcome(.started(let started)):
                for notice in started.notices { terminal.writeLine(notice) }
                started.held.release(to: started.backend) { nil }
            case .outcome(.failed), .none: break
            }
        }
        voice.finish(timeout: max(.zero, limit - (MonotonicInstant.now - start)))
        log?.voiceDone()
        return outcome
    }
}

extension SpeechDispatcherOptions {
    /// What the user set for otc-prompt, for their speech server: the language only when they chose
    /// it, so the server's own settings are otherwise kept.
    init(_ voice: SpeechOptions, autospawn: Bool) {
        self.init(
            language: voice.languageIsChosen ? voice.language : nil, voice: voice.voice, rate: voice.rate,
            autospawn: autospawn)
    }
}
