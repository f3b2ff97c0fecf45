/// Where the writer thread sends 16-bit mono samples: a sound device, a WAV file, or a test double.
///
/// A sink is created on the synthesis thread and then used by the writer thread, one call at a
/// time; only `interrupt` comes from the synthesis thread, and only a sink that implements it
/// needs its own locking.
public protocol AudioSink: AnyObject, Sendable {
    /// Plays `samples`, blocking at most about the length of one chunk (real-time pace), or
    /// queueing them at once on a paced device.
    func write(_ samples: UnsafeBufferPointer<Int16>)
    /// Drops everything written but not yet heard: a new announcement supersedes the old one.
    /// A device may return before it has done so; what is written next still comes after it.
    func flush()
    /// Waits until everything written has been heard.
    func drain()
    /// Releases the device or finalises the file; no call follows.
    func close()
    /// Called from the synthesis thread, possibly while the writer is in `write`: drops buffered
    /// audio at once. `acknowledged` runs (on any thread) once the device confirms the drop.
    /// Sinks that cannot do this from another thread do nothing and never call it (the writer
    /// then flushes after the current chunk).
    func interrupt(acknowledged: @escaping @Sendable () -> Void)
    /// Whether `interrupt` drops everything written before it, whichever thread wrote it: then,
    /// with no write under way, nothing stale is left and the writer need not flush again.
    var interruptDropsWrittenAudio: Bool { get }
    /// Set by a device whose `write` returns at once: the writer then hands it at most
    /// `pacing.leadMilliseconds` of audio ahead of real time and waits the rest where a new
    /// announcement wakes it at once. nil: `write` sets the pace (files, test doubles).
    var pacing: AudioPacing? { get }
}

/// How far ahead of the listener the writer may run (see `AudioSink.pacing`).
public struct AudioPacing: Sendable, Equatable {
    public var sampleRate: Int
    public var leadMilliseconds: Int
}

extension AudioSink {
    public func interrupt(acknowledged: @escaping @Sendable () -> Void) {}
    public var interruptDropsWrittenAudio: Bool { false }
    public var pacing: AudioPacing? { nil }
}

/// Makes the sink once espeak-ng has told the sample rate; runs on the synthesis thread.
public typealias AudioSinkFactory = @Sendable (_ sampleRate: Int) throws(SpeechError) -> any AudioSink
