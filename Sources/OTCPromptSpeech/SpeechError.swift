import OTCPromptSystem

#if canImport(Glibc)
    import Glibc
#endif

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
    /// No thread could be started for the voice (the process or session is at its task or memory limit).
    case noThread(String)
    /// The `--audio-file` cannot be created or written; the second value is the errno.
    case cannotWriteFile(String, Int32)
    /// A speech library (its soname) cannot be loaded, or lacks a function: not installed, or another
    /// version. Speech falls back to text; the reason is the loader's.
    case libraryUnavailable(String, reason: String)

    /// The loader's refusal, as speech tells it.
    init(_ error: SharedLibraryError) { self = .libraryUnavailable(error.soname, reason: error.reason) }

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
        case .noThread(let detail):
            return "speech unavailable: no thread could be started (\(detail)); announcements shown as text"
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
