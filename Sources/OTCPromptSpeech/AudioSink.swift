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
}

extension AudioSink {
    public func interrupt() {}
}

/// Makes the sink once espeak-ng has told the sample rate; runs on the synthesis thread.
public typealias AudioSinkFactory = @Sendable (_ sampleRate: Int) throws(SpeechError) -> any AudioSink
