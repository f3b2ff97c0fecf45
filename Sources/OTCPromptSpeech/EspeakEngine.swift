import CEspeakNG
import OTCPromptCore
import OTCPromptSystem

#if canImport(Glibc)
    import Glibc
#endif

/// libespeak-ng in AUDIO_OUTPUT_SYNCHRONOUS mode: the one type that calls it.
///
/// The library keeps its state in process globals and is not thread-safe, so an engine is used
/// on one thread only, and at most one engine exists in the process at a time (a second one
/// waits in `init` until the first is terminated). The chunk size is fixed by the first engine.
final class EspeakEngine {
    /// Samples per second of the 16-bit mono audio espeak-ng produces (22050 in 1.51).
    let sampleRate: Int
    /// The library's functions, loaded when the first engine of the process starts.
    private let espeak: EspeakFunctions
    /// The rate every espeak-ng voice has had so far, for opening a device before the engine says.
    static let usualSampleRate = 22050
    private var terminated = false

    /// Initialises espeak-ng with `espeakINITIALIZE_DONT_EXIT` and selects the voice and prosody.
    /// - Parameter bufferMilliseconds: audio per synth callback: the chunk size of interruption.
    /// The corresponding C functions are `espeak_Initialize` and `espeak_SetVoiceByName`.
    init(options: SpeechOptions, bufferMilliseconds: Int = 10) throws(SpeechError) {
        (espeak, sampleRate) = try EngineLease.shared.acquire(bufferMilliseconds: bufferMilliseconds)
        espeak.setSynthCallback(receiveSynthesis)
        guard Self.selectVoice(options.voiceName, espeak) == EE_OK else {
            terminate()
            // espeak-ng says only "not found": when no file can be opened, the voice is not the cause.
            if let reason = Self.cannotOpenFiles() { throw .cannotOpenFiles(reason) }
            throw .unknownVoice(options.voiceName)
        }
        // Always set: the library keeps the previous engine's values (ranges are checked by the settings).
        _ = espeak.setParameter(espeakRATE, Int32(options.rate ?? Int(espeakRATE_NORMAL)), 0)
        _ = espeak.setParameter(espeakVOLUME, Int32(options.volume ?? 100), 0)
        _ = espeak.setParameter(espeakPITCH, Int32(options.pitch ?? 50), 0)
    }

    deinit {
        terminate()
    }

    /// Synthesises `document` (SSML, as `SpokenText` builds it), handing each chunk of samples to
    /// `receiver` until it asks to stop. The corresponding C function is `espeak_Synth`.
    func synthesize(_ document: String, into receiver: SynthesisReceiver) {
        let flags = UInt32(espeakCHARS_UTF8) | UInt32(espeakSSML)
        withExtendedLifetime(receiver) {
            let userData = Unmanaged.passUnretained(receiver).toOpaque()
            _ = document.withCString { pointer in
                espeak.synth(pointer, strlen(pointer) + 1, 0, POS_CHARACTER, 0, flags, nil, userData)
            }
        }
    }

    /// The phonemes espeak-ng speaks for `utterance`, as the backend sends it (Kirshenbaum
    /// notation). The corresponding C function is `espeak_SetPhonemeTrace`.
    func spokenPhonemes(of utterance: Utterance) -> String {
        guard let trace = tmpfile() else { return "" }
        defer { fclose(trace) }
        espeak.setPhonemeTrace(Int32(espeakPHONEMES_SHOW), trace)
        synthesize(SpokenText.ssml(utterance), into: SynthesisReceiver { _ in true })
        espeak.setPhonemeTrace(0, nil)
        fflush(trace)
        rewind(trace)
        var output: [UInt8] = []
        while case let byte = getc(trace), byte != EOF { output.append(UInt8(byte)) }
        return String(decoding: output, as: UTF8.self)
    }

    /// The phonemes of plain `text`, one clause at a time. The corresponding C function is
    /// `espeak_TextToPhonemes`.
    func textToPhonemes(_ text: String) -> String {
        var clauses: [String] = []
        text.withCString { start in
            var position: UnsafeRawPointer? = UnsafeRawPointer(start)
            while position != nil, let phonemes = espeak.textToPhonemes(&position, espeakCHARS_UTF8, 0) {
                clauses.append(String(cString: phonemes))
            }
        }
        return clauses.joined(separator: " ")
    }

    /// Lets the next engine of the process use the library.
    ///
    /// Not `espeak_Terminate`: in espeak-ng 1.51 it deadlocks joining the library's internal
    /// thread, even in SYNCHRONOUS mode. The library stays initialised until the process exits.
    func terminate() {
        guard !terminated else { return }
        terminated = true
        EngineLease.shared.release()
    }

    /// The voice files of the names otc-prompt asks for itself, under espeak-ng-data/lang.
    ///
    /// espeak-ng 1.51 loads a voice named by its file at once (0.5 ms), but for a name such as "en" it
    /// first reads every voice file to list them (7-10 ms, on the engine's start-up path: the footprint and start-up targets). Only
    /// lower-case files qualify ("pt-BR" is looked up lower-cased, so pt-br still takes the list). A
    /// language's voice missing here still speaks, found through the list.
    private static let voiceFiles = ["en": "gmw/en", "de": "gmw/de", "es": "roa/es", "fr": "roa/fr", "pt": "roa/pt"]

    /// Selects `name`: through its file when it is known and present, else by name (any installed voice).
    /// The corresponding C function is `espeak_SetVoiceByName`.
    static func selectVoice(_ name: String, _ espeak: EspeakFunctions) -> espeak_ERROR {
        if let file = voiceFiles[name], espeak.setVoiceByName(file) == EE_OK { return EE_OK }
        return espeak.setVoiceByName(name)
    }

    /// Why espeak-ng cannot open the few files it needs at once (EMFILE, ENFILE), or nil when it can.
    /// The corresponding C functions are `open` and `getrlimit`.
    static func cannotOpenFiles() -> String? {
        var opened: [Int32] = []
        defer { for fd in opened { close(fd) } }
        for _ in 0..<4 {
            let fd = SystemCall.retrying("open") { open("/dev/null", O_RDONLY | O_CLOEXEC) }
            if fd < 0 {
                let code = Errno.current.rawValue
                var limit = rlimit()
                let soft =
                    getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0
                    ? " (open files limit \(limit.rlim_cur))" : ""
                return "cannot open its data files: \(String(cString: strerror(code)))\(soft)"
            }
            opened.append(fd)
        }
        return nil
    }
}

/// Where one utterance's samples go; reaches the C callback through espeak's `user_data`.
final class SynthesisReceiver {
    /// Takes a chunk; returns false to abort the utterance (it was superseded).
    let receive: (UnsafeBufferPointer<Int16>) -> Bool

    init(_ receive: @escaping (UnsafeBufferPointer<Int16>) -> Bool) {
        self.receive = receive
    }
}

/// espeak-ng's synth callback: finds the utterance's receiver in the event's `user_data`.
/// Returns 1 to make espeak-ng abort the utterance.
private func receiveSynthesis(
    _ samples: UnsafeMutablePointer<Int16>?, _ count: Int32, _ events: UnsafeMutablePointer<espeak_EVENT>?
) -> Int32 {
    guard let userData = events?.pointee.user_data else { return 0 }
    let receiver = Unmanaged<SynthesisReceiver>.fromOpaque(userData).takeUnretainedValue()
    let chunk = UnsafeBufferPointer(start: samples, count: samples == nil ? 0 : Int(count))
    return receiver.receive(chunk) ? 0 : 1
}

/// The one live espeak-ng engine of the process. A process-wide object because the library's
/// own state is process-wide: two engines on two threads would corrupt it.
final class EngineLease: @unchecked Sendable {
    static let shared = EngineLease()
    private let lock = ConditionLock()
    private var held = false
    /// The library and its sample rate, once it is loaded and initialised (once per process).
    private var initialized: (EspeakFunctions, sampleRate: Int)?

    /// Waits until no other engine is live, loading and initialising the library the first time.
    /// - Throws: `.libraryUnavailable` when libespeak-ng cannot be loaded (checked again by each engine).
    /// The corresponding C function is `espeak_Initialize`.
    func acquire(bufferMilliseconds: Int) throws(SpeechError) -> (EspeakFunctions, sampleRate: Int) {
        try lock.withLock { () throws(SpeechError) -> (EspeakFunctions, sampleRate: Int) in
            while held { lock.wait() }
            if let initialized {
                held = true
                return initialized
            }
            let espeak = try EspeakFunctions.loaded.get()
            // espeak_Initialize starts a thread of its own and asserts (SIGABRT) when it cannot have one.
            // SYNCHRONOUS plays nothing: espeak-ng's audio probe is declined (EspeakAudioProbe).
            let started = DetachedThread.whenOneCanStart {
                EspeakAudioProbe.declined {
                    espeak.initialize(
                        AUDIO_OUTPUT_SYNCHRONOUS, Int32(bufferMilliseconds), nil, espeakINITIALIZE_DONT_EXIT)
                }
            }
            guard let rate = started else { throw .noThread("espeak-ng's own thread") }
            guard rate > 0 else {
                if let reason = EspeakEngine.cannotOpenFiles() { throw .cannotOpenFiles(reason) }
                throw .engineUnavailable("espeak_Initialize returned \(rate)")
            }
            initialized = (espeak, Int(rate))
            held = true
            return (espeak, Int(rate))
        }
    }

    func release() {
        lock.withLock {
            held = false
            lock.broadcast()
        }
    }

    /// Initialises the library and loads `voiceName` (its dictionary stays loaded for the engine that
    /// asks for it next), then lets that engine have the library. Failures are left for it to find.
    /// The corresponding C functions are `espeak_Initialize` and `espeak_SetVoiceByName`.
    func prepare(voiceName: String, bufferMilliseconds: Int) {
        guard let (espeak, _) = try? acquire(bufferMilliseconds: bufferMilliseconds) else { return }
        _ = EspeakEngine.selectVoice(voiceName, espeak)
        release()
    }
}
