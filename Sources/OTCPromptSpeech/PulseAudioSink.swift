#if canImport(Glibc)
    import Glibc
#endif

/// A PulseAudio playback stream with a short buffer, opened through libpulse-simple.
///
/// pcaudiolib opens its PulseAudio stream with the server's default buffer (2 s, and playback
/// starts only once it is full or drained): a digit would be heard ~2 s late and a flush could
/// not make a new key heard at once. This stream asks for ~50 ms of buffer and starts playing
/// after the first chunk, so `write` blocks at real-time pace and `flush` drops at most ~50 ms.
/// libpulse-simple is loaded at run time (its development files are not needed to build), and
/// when it or the server is missing, the backend falls back to pcaudiolib (ALSA, OSS).
public final class PulseAudioSink: AudioSink, @unchecked Sendable {
    private typealias New =
        @convention(c) (
            UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
            UnsafeRawPointer?, UnsafeRawPointer?, UnsafeRawPointer?, UnsafeMutablePointer<Int32>?
        ) -> OpaquePointer?
    private typealias Write =
        @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int, UnsafeMutablePointer<Int32>?) -> Int32
    private typealias Call = @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>?) -> Int32
    private typealias Free = @convention(c) (OpaquePointer?) -> Void
    private typealias Latency = @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>?) -> UInt64

    /// `pa_sample_spec`.
    private struct SampleSpec {
        var format: Int32
        var rate: UInt32
        var channels: UInt8
    }

    /// `pa_buffer_attr`.
    private struct BufferAttributes {
        var maxlength: UInt32
        var tlength: UInt32
        var prebuf: UInt32
        var minreq: UInt32
        var fragsize: UInt32
    }

    private let library: UnsafeMutableRawPointer
    private let stream: OpaquePointer
    private let writeFunction: Write
    private let flushFunction: Call
    private let latencyFunction: Latency
    private let freeFunction: Free
    public let pacing: AudioPacing?

    /// Connects to the default PulseAudio server (`PULSE_SERVER` is honoured) for 16-bit mono.
    /// - Parameter bufferMilliseconds: audio the server holds ahead of the listener.
    /// The corresponding C functions are `dlopen` and `pa_simple_new`.
    public init(sampleRate: Int, bufferMilliseconds: Int = 50, applicationName: String = "otc-prompt")
        throws(SpeechError)
    {
        // RTLD_NODELETE: libpulse is not made to be unloaded (its threads and atexit handlers).
        guard let library = dlopen("libpulse-simple.so.0", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
            throw .noAudioDevice("libpulse-simple.so.0 is not installed")
        }
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            dlsym(library, name).map { unsafeBitCast($0, to: type) }
        }
        guard let new = symbol("pa_simple_new", as: New.self), let write = symbol("pa_simple_write", as: Write.self),
            let flush = symbol("pa_simple_flush", as: Call.self),
            let latency = symbol("pa_simple_get_latency", as: Latency.self),
            let free = symbol("pa_simple_free", as: Free.self),
            let describe = symbol("pa_strerror", as: (@convention(c) (Int32) -> UnsafePointer<CChar>?).self)
        else {
            dlclose(library)
            throw .noAudioDevice("libpulse-simple.so.0 lacks the simple API")
        }
        let bytesPerMillisecond = UInt32(sampleRate * 2 / 1000)
        var spec = SampleSpec(format: 3 /* PA_SAMPLE_S16LE */, rate: UInt32(sampleRate), channels: 1)
        var attributes = BufferAttributes(
            maxlength: UInt32.max, tlength: bytesPerMillisecond * UInt32(bufferMilliseconds),
            prebuf: bytesPerMillisecond * 5, minreq: bytesPerMillisecond * 5, fragsize: UInt32.max)
        var error: Int32 = 0
        let stream = withUnsafePointer(to: &spec) { spec in
            withUnsafePointer(to: &attributes) { attributes in
                new(
                    nil, applicationName, 1 /* PA_STREAM_PLAYBACK */, nil, "One-time code prompt", spec, nil,
                    attributes, &error)
            }
        }
        guard let stream else {
            let reason = describe(error).map { String(cString: $0) } ?? "error \(error)"
            dlclose(library)
            throw .noAudioDevice("PulseAudio: \(reason)")
        }
        self.library = library
        self.stream = stream
        self.writeFunction = write
        self.flushFunction = flush
        self.latencyFunction = latency
        self.freeFunction = free
        // A write blocked for room is not released by a flush: it waits for the server's next
        // request (~20 ms on a null sink), so a key pressed then was heard up to 20 ms late
        // (p99 20 ms). The writer keeps at most 15 ms ahead instead (under the ~20 ms the server
        // grants per request: measured, p99 -> ~5 ms, no added gaps in the sink's monitor) and
        // waits the rest where a new key wakes it.
        self.pacing = AudioPacing(sampleRate: sampleRate, leadMilliseconds: min(15, bufferMilliseconds))
    }

    public func write(_ samples: UnsafeBufferPointer<Int16>) {
        guard let base = samples.baseAddress, !samples.isEmpty else { return }
        _ = writeFunction(stream, base, samples.count * 2, nil)
    }

    public func flush() {
        _ = flushFunction(stream, nil)
    }

    /// pa_simple serialises its calls on its mainloop lock and a blocked write waits on that
    /// mainloop, so a flush from another thread empties the buffer and releases the write.
    public func interrupt() {
        _ = flushFunction(stream, nil)
    }

    /// Waits until the stream's reported latency (audio not yet heard) stops shrinking: what
    /// remains then is the sink's own latency, not ours. Not `pa_simple_drain`: on a null sink
    /// it returned seconds late, or not at all while the sink's monitor was recorded.
    /// Bounded by 10 s; `finish` bounds it further.
    public func drain() {
        let deadline = monotonicNanoseconds() + 10_000_000_000
        var error: Int32 = 0
        var previous = UInt64.max
        var stalled = 0
        while monotonicNanoseconds() < deadline {
            let remaining = latencyFunction(stream, &error)
            if error != 0 || remaining < 5_000 { return }
            stalled = remaining + 1_000 >= previous ? stalled + 1 : 0
            if stalled >= 2 { return }
            previous = remaining
            usleep(useconds_t(min(remaining, 20_000)))
        }
    }

    public func close() {
        freeFunction(stream)
        dlclose(library)
    }
}
