import CEspeakNG
import CPCAudio
import CPulseAudio
import OTCPromptSystem

/// libespeak-ng's functions that otc-prompt calls, resolved once, the first time speech needs them.
struct EspeakFunctions: @unchecked Sendable {
    static let soname = "libespeak-ng.so.1"
    /// Loaded by the first thread that asks (the engine's warm-up, beside the first draw); never unloaded.
    static let loaded = Result { () throws(SharedLibraryError) in try EspeakFunctions(SharedLibrary.open(soname)) }
        .mapError(SpeechError.init)

    let initialize: otc_espeak_Initialize
    let setSynthCallback: otc_espeak_SetSynthCallback
    let setVoiceByName: otc_espeak_SetVoiceByName
    let setParameter: otc_espeak_SetParameter
    let synth: otc_espeak_Synth
    let setPhonemeTrace: otc_espeak_SetPhonemeTrace
    let textToPhonemes: otc_espeak_TextToPhonemes

    private init(_ library: SharedLibrary) throws(SharedLibraryError) {
        initialize = try library.function("espeak_Initialize")
        setSynthCallback = try library.function("espeak_SetSynthCallback")
        setVoiceByName = try library.function("espeak_SetVoiceByName")
        setParameter = try library.function("espeak_SetParameter")
        synth = try library.function("espeak_Synth")
        setPhonemeTrace = try library.function("espeak_SetPhonemeTrace")
        textToPhonemes = try library.function("espeak_TextToPhonemes")
    }
}

/// pcaudiolib's functions (the device fallback when PulseAudio cannot be had), resolved once.
struct PCAudioFunctions: @unchecked Sendable {
    static let soname = "libpcaudio.so.0"
    static let loaded = Result { () throws(SharedLibraryError) in try PCAudioFunctions(SharedLibrary.open(soname)) }
        .mapError(SpeechError.init)

    let createDevice: otc_create_audio_device_object
    let open: otc_audio_object_open
    let close: otc_audio_object_close
    let destroy: otc_audio_object_destroy
    let write: otc_audio_object_write
    let drain: otc_audio_object_drain
    let flush: otc_audio_object_flush
    let strerror: otc_audio_object_strerror

    private init(_ library: SharedLibrary) throws(SharedLibraryError) {
        createDevice = try library.function("create_audio_device_object")
        open = try library.function("audio_object_open")
        close = try library.function("audio_object_close")
        destroy = try library.function("audio_object_destroy")
        write = try library.function("audio_object_write")
        drain = try library.function("audio_object_drain")
        flush = try library.function("audio_object_flush")
        strerror = try library.function("audio_object_strerror")
    }
}

/// The speech libraries as `--doctor` reports them.
public enum SpeechLibraries {
    /// Loads libespeak-ng, libpcaudio and libpulse (once per process); one line for each that cannot be
    /// loaded, saying which and why. Empty when all three can.
    public static func problems() -> [String] {
        let outcomes: [Result<Void, SpeechError>] = [
            EspeakFunctions.loaded.map { _ in () }, PCAudioFunctions.loaded.map { _ in () },
            PulseFunctions.loaded.map { _ in () },
        ]
        return outcomes.compactMap { outcome in
            guard case .failure(let error) = outcome else { return nil }
            return error.libraryProblem
        }
    }
}
