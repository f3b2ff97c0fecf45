/// Where the writer thread sends 16-bit mono samples: a sound device, a WAV file, or a test double.
///
/// A sink is created on the synthesis thread and then used only by the writer thread, one call
/// at a time; it never needs its own locking.
public protocol AudioSink: AnyObject, Sendable {
    /// Plays `samples`, blocking at most about the length of one chunk (real-time pace).
    func write(_ samples: UnsafeBufferPointer<Int16>)
    /// Drops everything written but not yet heard: a new announcement supersedes the old one.
    func flush()
    /// Waits until everything written has been heard.
    func drain()
    /// Releases the device or finalises the file; no call follows.
    func close()
    /// Called from the synthesis thread, possibly while the writer is blocked in `write`: drops
    /// buffered audio so that write returns at once. Sinks that cannot do this from another
    /// thread do nothing (the writer then flushes after the current chunk).
    func interrupt()
    /// Set by a device whose blocked `write` a flush does not release: the writer then hands it
    /// at most `pacing.leadMilliseconds` of audio ahead of real time and waits the rest where a
    /// new announcement wakes it at once. nil: `write` sets the pace (files, test doubles).
    var pacing: AudioPacing? { get }
}

/// How far ahead of the listener the writer may run (see `AudioSink.pacing`).
public struct AudioPacing: Sendable, Equatable {
    public var sampleRate: Int
    public var leadMilliseconds: Int

    public init(sampleRate: Int, leadMilliseconds: Int) {
        self.sampleRate = sampleRate
        self.leadMilliseconds = leadMilliseconds
    }
}

extension AudioSink {
    public func interrupt() {}
    public var pacing: AudioPacing? { nil }
}

/// Makes the sink once espeak-ng has told the sample rate; runs on the synthesis thread.
public typealias AudioSinkFactory = @Sendable (_ sampleRate: Int) throws(SpeechError) -> any AudioSink
