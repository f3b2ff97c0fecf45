/// Where synthesised speech goes.
public enum SpeechOutput: Sendable {
    /// The default sound device through pcaudiolib (PulseAudio, then ALSA, then OSS).
    case device
    /// A 16-bit mono WAV file at espeak-ng's sample rate, paced like a device (see `WAVFileSink`),
    /// written to `descriptor`, already open (the host module's `OutputFile`), through `writer`; the
    /// sink closes it. `path` is for messages; `isRegularFile` says whether the header can be patched at the end.
    case file(descriptor: Int32, isRegularFile: Bool, path: String, writer: AudioFileWriter)

    public var isDevice: Bool {
        if case .device = self { return true }
        return false
    }
}
