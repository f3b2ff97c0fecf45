import OTCPromptCore
import OTCPromptHost
import OTCPromptLoop
import OTCPromptSpeech
import OTCPromptSpeechDispatcher

/// The voice starting beside the prompt ("the screen first"): the automatic choice's
/// probes, speech-dispatcher's connection, espeak-ng and the audio device all run on a thread of
/// their own while the prompt is drawn and takes keys. Every wait there has a deadline
/// (`PulseAudioSink.connectTimeout`, `SpeechDispatcherOptions`, `readyTimeout`); when one passes, the
/// voice is an `UnavailableVoice` and `SpeechFallback` turns the screen and the announcements to text.
final class VoiceStartup: SpeechStartup {
    /// The longest espeak-ng and the audio device may take together before the prompt gives up on
    /// them: beyond the audio server's own deadline, for a library that hangs elsewhere.
    static let readyTimeout: Duration = .seconds(3)

    /// How the start-up ended, as the thread hands it over.
    enum Voice: @unchecked Sendable {
        case espeak(EspeakSpeechBackend)
        case speechd(SpeechDispatcherBackend)
        /// No voice: text lines from now on, and why.
        case text(because: SpeechFailure)
        /// A usage error (a voice named on the command line is not installed, espeak-ng is missing).
        case failed(String)
    }

    struct Result: Sendable {
        var voice: Voice
        /// Which way speech was to go, and why (the automatic choice may only be known now).
        var route: SpeechRoute
        /// Lines for the user besides a fallback's own (a config file's voice that is not installed).
        var notices: [String] = []
    }

    /// Where announcements wait until the voice is ready (the loop releases them); espeak-ng, when it
    /// starts, has the first of them at once.
    let held: HeldSpeech
    private let task: BackgroundTask<Result>
    private let log: SpeechLogWriter?
    private let memory: AskMemory
    /// `--audio-file`'s path: audio that stops going there is reported (`AudioFileVoice`).
    private let audioFile: String?
    /// The starting engine as a voice into the audio file, given the first announcement at once: the same one
    /// speaks on once started, so `HeldSpeech` knows the opening was said.
    private let provisionalFileVoice: AudioFileVoice?
    /// speech-dispatcher once it answers, to silence it when a signal ends the prompt.
    private(set) var dispatcher: SpeechDispatcherBackend?
    private var taken = false

    /// Starts the voice; returns at once.
    /// - Parameters:
    ///   - route: the way already decided, or nil when the automatic choice must probe first.
    ///   - engine: espeak-ng already starting (a known route or an audio file), so it gains the time the
    ///     terminal set-up takes.
    init(
        route: SpeechRoute?, choose: @escaping @Sendable () -> SpeechRoute, engine: EspeakSpeechBackend?,
        start: VoiceStart, log: SpeechLogWriter?, memory: AskMemory
    ) throws(HostError) {
        self.log = log
        self.memory = memory
        var path: String?
        if case .file(_, _, let file, _) = start.output { path = file }
        audioFile = path
        if let engine, let path {
            provisionalFileVoice = AudioFileVoice(engine: engine, path: path)
        } else {
            provisionalFileVoice = nil
        }
        held = HeldSpeech(provisional: provisionalFileVoice ?? engine)
        let engine = UncheckedBox(engine)
        task = try BackgroundTask {
            let route = route ?? choose()
            return start.run(route: route, engine: engine.value)
        }
    }

    var descriptor: Int32 { task.descriptor }

    /// With `--audio-file`, `engine` as a voice into it: the provisional one when it is that engine.
    private func fileVoice(for engine: EspeakSpeechBackend) -> AudioFileVoice? {
        guard let audioFile else { return nil }
        if let provisionalFileVoice, provisionalFileVoice.engine === engine { return provisionalFileVoice }
        return AudioFileVoice(engine: engine, path: audioFile)
    }

    func takeOutcome() -> SpeechStartOutcome? {
        guard !taken, let result = task.result else { return nil }
        taken = true
        var notices = result.notices
        let backend: any SpeechBackend
        var note = "\(result.route.kind.rawValue): \(result.route.reason)"
        switch result.voice {
        case .failed(let message):
            log?.settle(note: "\(result.route.kind.rawValue): \(message)")
            return .failed(message)
        case .espeak(let engine):
            backend = fileVoice(for: engine) ?? engine
        case .speechd(let server):
            dispatcher = server
            backend = server
        case .text(let failure):
            // The log's note stays in English, whatever the user's language, for the tools that read it.
            note = "text: " + Wording(language: .en).speechFallback(failure)
            backend = UnavailableVoice(failure)
        }
        log?.settle(note: note)
        notices = notices.filter { memory.isFirstTimeThisSession($0) }.map { "otc-prompt: \($0)" }
        return .started(SpeechStarted(held: held, backend: backend, notices: notices))
    }

    /// After the prompt has ended with the voice still starting: waits at most `timeout` for it, so the
    /// last words (code complete) are still said; a signal meanwhile is returned at once.
    func waitAfterPrompt(timeout: Duration, signals: SignalWatcher?) -> SpeechStartAfterPrompt {
        guard !taken else { return .none }
        switch task.wait(timeout: timeout, signals: signals) {
        case .signal(let signal): return .signal(signal)
        case .timedOut:
            log?.settle(note: Self.abandonedNote)
            return .none
        case .finished: return takeOutcome().map { .outcome($0) } ?? .none
        }
    }

    /// The held log lines, when the prompt ends before the voice is known (a signal).
    func abandon() {
        guard !taken else { return }
        log?.settle(note: Self.abandonedNote)
    }

    /// The log's note when the prompt ended before the voice was known.
    private static let abandonedNote = "none: the voice was still starting when the prompt ended"
}

/// What `VoiceStartup.waitAfterPrompt` ended with.
enum SpeechStartAfterPrompt {
    case outcome(SpeechStartOutcome)
    case signal(Int32)
    /// Nothing to wait for, or not in time.
    case none
}

/// The start-up's work on its thread: everything it needs, as values.
struct VoiceStart: Sendable {
    var voice: SpeechOptions
    /// "file:line" when the voice comes from the config file: one that is not installed falls back to
    /// the language's voice instead of ending the prompt.
    var voiceLocation: String?
    var output: SpeechOutput
    var environment: [String: String]
    /// When espeak-ng lets the device go, and whom it tells (`EspeakSpeechBackend.start`).
    var releaseAfterSilence: DeviceRelease?

    func run(route: SpeechRoute, engine: EspeakSpeechBackend?) -> VoiceStartup.Result {
        if route.kind == .speechd, output.isDevice {
            // A muted engine started for `auto` is not used: it says nothing and goes with the held speech.
            return VoiceStartup.Result(voice: speechDispatcher(route: route), route: route)
        }
        var engine =
            engine
            ?? EspeakSpeechBackend.start(options: voice, output: output, releaseAfterSilence: releaseAfterSilence)
        engine.unmute()
        do throws(SpeechError) {
            try engine.waitUntilReady(timeout: VoiceStartup.readyTimeout)
            return VoiceStartup.Result(voice: .espeak(engine), route: route)
        } catch .unknownVoice(let name) where voiceLocation != nil {
            var language = voice
            language.voice = nil
            engine = EspeakSpeechBackend.start(
                options: language, output: output, releaseAfterSilence: releaseAfterSilence)
            let notice =
                "\(voiceLocation ?? ""): voice '\(name)' is not installed; using \(language.voiceName) "
                + "(espeak-ng --voices lists the voices)"
            return VoiceStartup.Result(voice: Self.outcome(of: engine), route: route, notices: [notice])
        } catch {
            return VoiceStartup.Result(voice: Self.outcome(failure: error), route: route)
        }
    }

    private static func outcome(of engine: EspeakSpeechBackend) -> VoiceStartup.Voice {
        do throws(SpeechError) {
            try engine.waitUntilReady(timeout: VoiceStartup.readyTimeout)
            return .espeak(engine)
        } catch {
            return outcome(failure: error)
        }
    }

    /// No audio device, one that did not answer in time, a speech library that cannot be loaded, or no thread
    /// for the voice: text lines. Anything else stops the prompt.
    private static func outcome(failure error: SpeechError) -> VoiceStartup.Voice {
        switch error {
        case .noAudioDevice: return .text(because: .noAudioDevice)
        case .audioServerDidNotAnswer(let server, let limit):
            return .text(because: .audioServerDidNotAnswer(server: server, within: limit))
        case .notReadyInTime(let limit): return .text(because: .audioDeviceNotReady(within: limit))
        case .libraryUnavailable: return .text(because: .libraryUnavailable(problem: error.libraryProblem ?? ""))
        // Said as a library that cannot be had is: "speech unavailable: …", then text lines.
        case .noThread(let detail):
            return .text(because: .libraryUnavailable(problem: "no thread could be started (\(detail))"))
        case .unknownVoice, .engineUnavailable, .cannotOpenFiles, .cannotWriteFile: return .failed("\(error)")
        }
    }

    private func speechDispatcher(route: SpeechRoute) -> VoiceStartup.Voice {
        let options = SpeechDispatcherOptions(voice, autospawn: route.autospawn)
        do {
            return .speechd(
                try SpeechDispatcherBackend(options: options, environment: environment, user: UserAccount.current))
        } catch {
            return .text(because: .speechDispatcherUnavailable(problem: "\(error)"))
        }
    }
}

/// A value handed to the start-up's thread and back once, never used by two threads at a time.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
