#if canImport(Glibc)
    import Glibc
#endif

/// Timestamps of the audio path for the benchmarks (`make bench`), so a harness outside the
/// process can tell when audio reached the device: with `OTC_PROMPT_TRACE=PATH` set, one line per
/// event is appended to PATH, `EVENT GENERATION NANOSECONDS` on CLOCK_MONOTONIC (the clock a
/// harness reads with `time.monotonic_ns()`):
/// - `sample G T`: the first chunk of announcement G is handed to the sink (device or file);
/// - `flushed G T`: the sink has dropped the audio older than announcement G.
/// Unset, it costs one `getenv` when speech starts.
final class SpeechTrace: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// The trace the environment asks for, or nil (unset, or the file cannot be opened).
    static func fromEnvironment() -> SpeechTrace? {
        guard let path = getenv("OTC_PROMPT_TRACE") else { return nil }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        return descriptor < 0 ? nil : SpeechTrace(descriptor: descriptor)
    }

    func record(_ event: StaticString, generation: UInt64) {
        let line = "\(event) \(generation) \(monotonicNanoseconds())\n"
        var bytes = Array(line.utf8)
        _ = bytes.withUnsafeMutableBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}
