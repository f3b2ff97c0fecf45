import OTCPromptSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Timestamps of the audio path for the benchmarks (`make bench`), so a harness outside the
/// process can tell when audio reached the device: with `OTC_PROMPT_TRACE=PATH` set, one line per
/// event is appended to PATH, `EVENT GENERATION NANOSECONDS` on CLOCK_MONOTONIC (the clock a
/// harness reads with `time.monotonic_ns()`):
/// - `requested G T`: announcement G was posted by the input thread;
/// - `woke G T`: the synthesis thread picked it up;
/// - `interrupted G T`: the synthesis thread asked the device to drop older audio;
/// - `stopped G T`: the device acknowledged that (PulseAudio; other sinks never say);
/// - `flushed G T`: the writer thread's own flush of older audio returned;
/// - `sample G T`: the first chunk of announcement G is handed to the sink (device or file);
/// - `underrun 0 T`: the PulseAudio server reported that the stream ran dry;
/// - `engine 0 T`, `device 0 T`: at start-up, espeak-ng has its voice; the sink is open too.
/// - `released G T`: a voice that mostly waits let its device go after the silence (G: the newest announcement);
///   `device G T` follows when it is opened again for announcement G.
/// - `EVENT 0 T`: an event of the program around the voice, recorded through `note` (`renewed`: the program
///   executed itself anew, without the voice's libraries).
/// Unset, it costs nothing; set, one `clock_gettime` and one `write` per event, about six per announcement.
/// The executable opens the file as any file the prompt writes (`OutputFile`: the user's own, never through a
/// link) and hands it over with `install` before anything speaks.
public final class SpeechTrace: Sendable {
    /// The variable naming the trace file.
    public static let variable = "OTC_PROMPT_TRACE"
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    private static let lock = ConditionLock()
    nonisolated(unsafe) private static var installed: SpeechTrace?

    /// Makes `descriptor`, open for appending, the process's trace; once, before the voice starts.
    public static func install(descriptor: Int32) {
        lock.withLock { installed = SpeechTrace(descriptor: descriptor) }
    }

    /// The process's trace: every thread and the sink append to the same file. nil without one.
    static var shared: SpeechTrace? { lock.withLock { installed } }

    /// Records `event` of the program around the voice, with generation 0, when a trace is installed.
    public static func note(_ event: StaticString) {
        shared?.record(event, generation: 0)
    }

    func record(_ event: StaticString, generation: UInt64) {
        let line = "\(event) \(generation) \(monotonicNanoseconds())\n"
        var bytes = Array(line.utf8)
        _ = bytes.withUnsafeMutableBytes { raw in
            SystemCall.retrying("write") { write(descriptor, raw.baseAddress, raw.count) }
        }
    }
}
