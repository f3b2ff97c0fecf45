import CPCAudio

#if canImport(Glibc)
    import Glibc
#endif

/// The default sound device through pcaudiolib, espeak-ng's own audio layer (PulseAudio, ALSA, OSS).
public final class PCAudioSink: AudioSink, @unchecked Sendable {
    private let device: OpaquePointer
    private let pcaudio: PCAudioFunctions

    /// Opens the default device for 16-bit mono at `sampleRate`.
    ///
    /// Call inside a `StderrCapture`: with no server and no card the audio libraries print noise.
    /// - Throws: `.libraryUnavailable` when libpcaudio cannot be loaded, `.noAudioDevice` otherwise.
    /// The corresponding C functions are `create_audio_device_object` and `audio_object_open`.
    public init(sampleRate: Int, applicationName: String = "otc-prompt") throws(SpeechError) {
        let pcaudio = try PCAudioFunctions.loaded.get()
        guard let device = pcaudio.createDevice(nil, applicationName, "One-time code prompt") else {
            throw .noAudioDevice("no audio backend (PulseAudio, ALSA, OSS) is available")
        }
        let status = pcaudio.open(device, AUDIO_OBJECT_FORMAT_S16LE, UInt32(sampleRate), 1)
        guard status == 0 else {
            let reason = pcaudio.strerror(device, status).map { String(cString: $0) } ?? "error \(status)"
            pcaudio.destroy(device)
            throw .noAudioDevice(reason)
        }
        self.device = device
        self.pcaudio = pcaudio
    }

    public func write(_ samples: UnsafeBufferPointer<Int16>) {
        guard let base = samples.baseAddress, !samples.isEmpty else { return }
        _ = pcaudio.write(device, base, samples.count * MemoryLayout<Int16>.size)
    }

    public func flush() {
        _ = pcaudio.flush(device)
    }

    public func drain() {
        _ = pcaudio.drain(device)
    }

    public func close() {
        pcaudio.close(device)
        pcaudio.destroy(device)
    }
}
