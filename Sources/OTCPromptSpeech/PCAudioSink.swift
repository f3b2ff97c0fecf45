import CPCAudio

#if canImport(Glibc)
    import Glibc
#endif

/// The default sound device through pcaudiolib, espeak-ng's own audio layer (PulseAudio, ALSA, OSS).
public final class PCAudioSink: AudioSink, @unchecked Sendable {
    private let device: OpaquePointer

    /// Opens the default device for 16-bit mono at `sampleRate`.
    ///
    /// Call inside a `StderrCapture`: with no server and no card the audio libraries print noise.
    /// The corresponding C functions are `create_audio_device_object` and `audio_object_open`.
    public init(sampleRate: Int, applicationName: String = "otc-prompt") throws(SpeechError) {
        guard let device = create_audio_device_object(nil, applicationName, "One-time code prompt") else {
            throw .noAudioDevice("no audio backend (PulseAudio, ALSA, OSS) is available")
        }
        let status = audio_object_open(device, AUDIO_OBJECT_FORMAT_S16LE, UInt32(sampleRate), 1)
        guard status == 0 else {
            let reason = audio_object_strerror(device, status).map { String(cString: $0) } ?? "error \(status)"
            audio_object_destroy(device)
            throw .noAudioDevice(reason)
        }
        self.device = device
    }

    public func write(_ samples: UnsafeBufferPointer<Int16>) {
        guard let base = samples.baseAddress, !samples.isEmpty else { return }
        _ = audio_object_write(device, base, samples.count * MemoryLayout<Int16>.size)
    }

    public func flush() {
        _ = audio_object_flush(device)
    }

    public func drain() {
        _ = audio_object_drain(device)
    }

    public func close() {
        audio_object_close(device)
        audio_object_destroy(device)
    }
}
