import CPCAudio

/// espeak-ng 1.51's audio probe, declined while otc-prompt initialises the library (the footprint and start-up targets).
///
/// `espeak_ng_InitializeOutput` calls pcaudiolib's `create_audio_device_object` in every output mode
/// (1.52 calls it only for ENOUTPUT_MODE_SPEAK_AUDIO), and pcaudiolib opens and closes a PulseAudio
/// stream named "eSpeak" to see whether a server answers: 3-6 ms and a second server connection on the
/// engine's start-up path, and a wait on a stuck server, for a device that SYNCHRONOUS mode never
/// uses (otc-prompt plays the samples itself). The executable exports the function below under that
/// name (`--export-dynamic-symbol`, Package.swift), and libespeak-ng, although loaded RTLD_LOCAL,
/// looks its undefined symbols up in the global scope first, so its call lands here. otc-prompt's own
/// `PCAudioSink` reaches the real function with `dlsym` on libpcaudio's handle, never through here.
enum EspeakAudioProbe {
    /// Set by `EngineLease` (under its lock, on the thread that calls `espeak_Initialize`) while it
    /// initialises the library in SYNCHRONOUS mode; the only writer and the only reader hold that lock.
    nonisolated(unsafe) static var declining = false

    /// Runs `body` (espeak-ng's initialisation in a mode that plays nothing) with the probe declined.
    static func declined<Result>(_ body: () -> Result) -> Result {
        declining = true
        defer { declining = false }
        return body()
    }
}

/// libespeak-ng's `create_audio_device_object`: no device while `EspeakAudioProbe.declining` (espeak-ng
/// then keeps a NULL audio object, which SYNCHRONOUS mode never touches and pcaudiolib's functions accept),
/// else the real one, so a playback mode would still get its device; never one while PulseAudio is refused
/// (`PulseAudioRefusal`), since pcaudiolib would connect to that server.
@_cdecl("create_audio_device_object")
public func espeakCreateAudioDeviceObject(
    _ device: UnsafePointer<CChar>?, _ applicationName: UnsafePointer<CChar>?, _ description: UnsafePointer<CChar>?
) -> OpaquePointer? {
    if EspeakAudioProbe.declining || PulseAudioRefusal.reason != nil { return nil }
    guard let pcaudio = try? PCAudioFunctions.loaded.get() else { return nil }
    return pcaudio.createDevice(device, applicationName, description)
}
