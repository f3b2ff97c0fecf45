import OTCPromptCore

#if canImport(Glibc)
    import Glibc
#endif

/// How the espeak-ng voice sounds: the language's voice unless one is named, and the user's rate.
public struct SpeechOptions: Equatable, Sendable {
    public var language: Language
    /// An installed espeak-ng voice (`espeak-ng --voices`); nil means the language's default voice.
    public var voice: String?
    /// Words per minute (`Settings.rate`); nil keeps espeak-ng's default (175).
    public var rate: Int?
    /// `Settings.volume`; nil keeps espeak-ng's default (100).
    public var volume: Int?
    /// `Settings.pitch`; nil keeps espeak-ng's default (50).
    public var pitch: Int?
    /// The user chose `language` (`--lang` or the config file) rather than the locale deciding: only then is a
    /// speech server that has the user's own settings told the language.
    public var languageIsChosen = false

    public init(language: Language = .en, voice: String? = nil, rate: Int? = nil, volume: Int? = nil, pitch: Int? = nil)
    {
        self.language = language
        self.voice = voice
        self.rate = rate
        self.volume = volume
        self.pitch = pitch
    }

    /// The voice espeak-ng is asked for: the named one, else the language's own.
    public var voiceName: String {
        voice ?? language.espeakVoice
    }
}

/// Where synthesised speech goes.
public enum SpeechOutput: Sendable {
    /// The default sound device through pcaudiolib (PulseAudio, then ALSA, then OSS).
    case device
    /// A 16-bit mono WAV file at espeak-ng's sample rate, paced like a device (see `WAVFileSink`),
    /// written to `descriptor`, already open (the terminal module's `OutputFile`), through `writer`; the
    /// sink closes it. `path` is for messages; `isRegularFile` says whether the header can be patched at the end.
    case file(descriptor: Int32, isRegularFile: Bool, path: String, writer: AudioFileWriter)

    public var isDevice: Bool {
        if case .device = self { return true }
        return false
    }
}

/// How the WAV sink writes the `--audio-file`: the executable hands it the terminal module's bounded writes
/// (`OutputFile.write`), so that the terminal module alone waits on a descriptor.
public struct AudioFileWriter: Sendable {
    /// How long one write waits for a pipe's or socket's reader to make room; nil for a file or device,
    /// whose writes block.
    public var patience: Duration?
    /// Writes every byte: nil when all went out, else the errno that stopped it (ETIMEDOUT: the reader made no
    /// room within `patience`).
    public var write: @Sendable (UnsafeRawBufferPointer) -> Int32?

    public init(patience: Duration?, write: @escaping @Sendable (UnsafeRawBufferPointer) -> Int32?) {
        self.patience = patience
        self.write = write
    }
}

/// Why speech cannot start. Each description is one line for the terminal.
public enum SpeechError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No sound device could be opened; the detail is what the audio library said, for logs only.
    case noAudioDevice(String)
    /// The audio server (named) accepted the connection but did not make the stream ready in time.
    case audioServerDidNotAnswer(String, within: Duration)
    /// espeak-ng and the audio device were not ready within this long (a library that hangs).
    case notReadyInTime(Duration)
    /// espeak-ng has no voice of this name.
    case unknownVoice(String)
    /// espeak-ng itself could not start (its data is missing or unreadable).
    case engineUnavailable(String)
    /// The process cannot open more files (EMFILE, ENFILE): not a missing voice or missing data.
    case cannotOpenFiles(String)
    /// The `--audio-file` cannot be created or written; the second value is the errno.
    case cannotWriteFile(String, Int32)
    /// A speech library (its soname) cannot be loaded, or lacks a function: not installed, or another
    /// version. Speech falls back to text; the reason is the loader's.
    case libraryUnavailable(String, reason: String)

    public var description: String {
        switch self {
        case .noAudioDevice:
            return "speech unavailable: no audio device; announcements shown as text"
        case .audioServerDidNotAnswer(let server, let limit):
            return "speech unavailable: the audio server (\(server)) did not answer within \(Self.seconds(limit)); "
                + "announcements shown as text"
        case .notReadyInTime(let limit):
            return "speech unavailable: the audio device did not start within \(Self.seconds(limit)); "
                + "announcements shown as text"
        case .unknownVoice(let name):
            return "unknown voice '\(name)': run espeak-ng --voices to list them"
        case .engineUnavailable(let detail):
            return "speech unavailable: espeak-ng could not start (\(detail)); is espeak-ng-data installed?"
        case .cannotOpenFiles(let detail):
            return "speech unavailable: espeak-ng \(detail)"
        case .cannotWriteFile(let path, let errno):
            return "cannot write audio file '\(path)': \(String(cString: strerror(errno)))"
        case .libraryUnavailable:
            return "speech unavailable: \(libraryProblem ?? ""); announcements shown as text"
        }
    }

    /// Which library cannot be loaded, why, and the Debian package that provides it; nil for other errors.
    public var libraryProblem: String? {
        guard case .libraryUnavailable(let soname, let reason) = self else { return nil }
        let packages = [
            "libespeak-ng.so.1": "libespeak-ng1", "libpcaudio.so.0": "libpcaudio0", "libpulse.so.0": "libpulse0",
        ]
        let package = packages[soname].map { " (install \($0))" } ?? ""
        return "\(soname) cannot be loaded\(package): \(reason)"
    }

    /// "2 s", "1.5 s": a limit as a person reads it.
    static func seconds(_ duration: Duration) -> String {
        let (whole, attoseconds) = duration.components
        let tenths = attoseconds / 100_000_000_000_000_000
        return tenths == 0 ? "\(whole) s" : "\(whole).\(tenths) s"
    }
}
