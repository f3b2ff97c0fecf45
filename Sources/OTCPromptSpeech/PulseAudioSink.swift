import CPulseAudio
import OTCPromptSystem

#if canImport(Glibc)
    import Glibc
#endif

/// A PulseAudio playback stream with a short buffer, driven through libpulse's asynchronous API
/// so that neither a write nor a flush ever waits for the server.
///
/// pcaudiolib opens its PulseAudio stream with the server's default buffer (2 s, and playback
/// starts only once it is full or drained): a digit would be heard ~2 s late. This stream asks
/// for ~50 ms of buffer and starts playing after 5 ms. libpulse-simple was tried first, but its
/// flush waits for the server's reply, and a write after a flush waits for the server's next
/// request for data (~20 ms on a null sink): a key was handed to the device up to 15 ms late
/// (the latency targets' p99). Here a flush is sent and not waited for, and a write is queued at once
/// behind it on the same connection, so the server drops the stale audio before it plays the new.
public final class PulseAudioSink: AudioSink, @unchecked Sendable {
    private let mainloop: OpaquePointer
    private let context: OpaquePointer
    private let stream: OpaquePointer
    private let pulse: PulseFunctions
    /// The closures of acknowledged flushes still in flight, oldest first; guarded by the
    /// mainloop lock, which libpulse holds while it runs callbacks.
    private let acknowledgements = Acknowledgements()
    /// What libpulse's callbacks wake (the loop) and the connection's deadline; lives as long as the loop.
    private let waker: LoopWaker
    public let pacing: AudioPacing?

    /// The longest the server may take to accept the connection and the stream: libpulse's own
    /// limit is 120 s, and a server that accepts and never answers (a stuck pipewire-pulse) would
    /// keep the prompt silent that long. A live server answers in a few milliseconds.
    public static let connectTimeout: Duration = .seconds(2)

    /// Connects to `server` (nil: the default one, so `PULSE_SERVER` is honoured) for 16-bit mono.
    /// - Parameters:
    ///   - bufferMilliseconds: audio the server holds ahead of the listener.
    ///   - connectTimeout: the longest the connection and the stream may take to be ready.
    /// - Throws: `.libraryUnavailable` when libpulse cannot be loaded, `.audioServerDidNotAnswer` when
    ///   `connectTimeout` passes, `.noAudioDevice` otherwise.
    /// The corresponding C functions are `pa_context_connect`, `pa_stream_connect_playback` and
    /// `pa_context_rttime_new` (the deadline).
    public init(
        sampleRate: Int, bufferMilliseconds: Int = 50, server: String? = nil, applicationName: String = "otc-prompt",
        connectTimeout: Duration = PulseAudioSink.connectTimeout
    ) throws(SpeechError) {
        let pulse = try PulseFunctions.loaded.get()
        guard let mainloop = pulse.mainloopNew() else {
            throw .noAudioDevice("PulseAudio: cannot create a main loop")
        }
        guard let context = pulse.contextNew(pulse.mainloopGetAPI(mainloop), applicationName) else {
            pulse.mainloopFree(mainloop)
            throw .noAudioDevice("PulseAudio: cannot create a context")
        }
        let waker = LoopWaker(mainloop: mainloop, pulse: pulse)
        let userdata = Unmanaged.passUnretained(waker).toOpaque()
        pulse.contextSetStateCallback(context, { _, waker in LoopWaker.wake(waker) }, userdata)
        let bytesPerMillisecond = UInt32(sampleRate * 2 / 1000)
        var spec = pa_sample_spec(format: OTC_PA_SAMPLE_S16LE, rate: UInt32(sampleRate), channels: 1)
        var attributes = pa_buffer_attr(
            maxlength: UInt32.max, tlength: bytesPerMillisecond * UInt32(bufferMilliseconds),
            prebuf: bytesPerMillisecond * 5, minreq: bytesPerMillisecond * 5, fragsize: UInt32.max)

        pulse.mainloopLock(mainloop)
        var stream: OpaquePointer?
        // The deadline is a timer on libpulse's own loop, which wakes the waits below when it passes. It
        // is set before the loop's thread starts: one added while that thread sleeps is not seen (libpulse
        // 16.1 does not wake its poll for a new timer), and the loop would wait its own 30 s.
        let timer = pulse.contextRttimeNew(
            context, pulse.rtclockNow() + Self.microseconds(connectTimeout),
            { _, _, _, waker in LoopWaker.passDeadline(waker) }, userdata)
        let failure: String? = {
            // Flags 0, as pa_simple_new: the server may be autospawned where that is configured.
            guard pulse.contextConnect(context, server, 0, nil) >= 0, pulse.mainloopStart(mainloop) >= 0 else {
                return Self.reason(context, pulse)
            }
            while pulse.contextGetState(context) != OTC_PA_CONTEXT_READY {
                if pulse.contextGetState(context) >= OTC_PA_CONTEXT_FAILED { return Self.reason(context, pulse) }
                if waker.deadlinePassed { return nil }
                pulse.mainloopWait(mainloop)
            }
            guard let created = pulse.streamNew(context, "One-time code prompt", &spec, nil) else {
                return Self.reason(context, pulse)
            }
            stream = created
            pulse.streamSetStateCallback(created, { _, waker in LoopWaker.wake(waker) }, userdata)
            // The server's underrun reports, for the benchmarks; the trace lives as long as the process.
            if let trace = SpeechTrace.shared {
                pulse.streamSetUnderflowCallback(
                    created,
                    { _, trace in
                        guard let trace else { return }
                        Unmanaged<SpeechTrace>.fromOpaque(trace).takeUnretainedValue().record("underrun", generation: 0)
                    }, Unmanaged.passUnretained(trace).toOpaque())
            }
            let flags =
                OTC_PA_STREAM_INTERPOLATE_TIMING | OTC_PA_STREAM_AUTO_TIMING_UPDATE | OTC_PA_STREAM_ADJUST_LATENCY
            guard pulse.streamConnectPlayback(created, nil, &attributes, flags, nil, nil) >= 0 else {
                return Self.reason(context, pulse)
            }
            while pulse.streamGetState(created) != OTC_PA_STREAM_READY {
                if pulse.streamGetState(created) >= OTC_PA_STREAM_FAILED { return Self.reason(context, pulse) }
                if waker.deadlinePassed { return nil }
                pulse.mainloopWait(mainloop)
            }
            return nil
        }()
        let timedOut = waker.deadlinePassed && failure == nil
        if let timer, !timedOut { pulse.contextRttimeRestart(context, timer, pa_usec_t.max) }
        pulse.mainloopUnlock(mainloop)
        guard let stream, failure == nil, !timedOut else {
            Self.release(mainloop: mainloop, context: context, stream: stream, pulse)
            if timedOut { throw .audioServerDidNotAnswer("PulseAudio", within: connectTimeout) }
            throw .noAudioDevice("PulseAudio: \(failure ?? "no stream")")
        }
        self.waker = waker
        self.pulse = pulse
        self.mainloop = mainloop
        self.context = context
        self.stream = stream
        // The writer keeps the stream at its target length and no further ahead, so a flush has
        // little to drop. A 15 ms lead (kept from libpulse-simple, where writing further ahead
        // blocked) let the stream run dry inside announcements: 25-31 gaps in 200 keys on a null
        // sink, none at 50 ms (`make bench` counts them).
        self.pacing = AudioPacing(sampleRate: sampleRate, leadMilliseconds: bufferMilliseconds)
    }

    /// Queues `samples` behind whatever was sent before (including a flush); never waits.
    public func write(_ samples: UnsafeBufferPointer<Int16>) {
        guard let base = samples.baseAddress, !samples.isEmpty else { return }
        pulse.mainloopLock(mainloop)
        // free_cb nil: libpulse copies the samples before returning.
        _ = pulse.streamWrite(stream, base, samples.count * 2, nil, 0, OTC_PA_SEEK_RELATIVE)
        pulse.mainloopUnlock(mainloop)
    }

    /// Sends the server a flush and returns without waiting for it: whatever is written next
    /// reaches the server after it, on the same connection.
    public func flush() {
        sendFlush(acknowledged: nil)
    }

    public func interrupt(acknowledged: @escaping @Sendable () -> Void) {
        sendFlush(acknowledged: acknowledged)
    }

    /// The server drops everything this stream was sent before the flush, on the one connection
    /// every thread writes through.
    public var interruptDropsWrittenAudio: Bool { true }

    private func sendFlush(acknowledged: (@Sendable () -> Void)?) {
        pulse.mainloopLock(mainloop)
        defer { pulse.mainloopUnlock(mainloop) }
        guard let acknowledged else {
            if let operation = pulse.streamFlush(stream, nil, nil) { pulse.operationUnref(operation) }
            return
        }
        // The server answers in order, so each answer belongs to the oldest closure waiting.
        acknowledgements.pending.append(acknowledged)
        let box = Unmanaged.passUnretained(acknowledgements).toOpaque()
        if let operation = pulse.streamFlush(stream, { _, _, box in Acknowledgements.answer(box) }, box) {
            pulse.operationUnref(operation)
        } else {
            acknowledgements.pending.removeLast()
        }
    }

    /// Waits until the stream's latency (audio not yet heard) stops shrinking: what remains then
    /// is the sink's own latency, not ours. Each reading asks the server first: the latency
    /// libpulse interpolates between its own updates (up to 1.5 s apart) went stale and ended
    /// the wait with ~120 ms of the final announcement unplayed. Not a drain operation: on a
    /// null sink it returned seconds late, or not at all while the sink's monitor was recorded.
    /// Bounded by 10 s; `finish` bounds it further.
    public func drain() {
        let deadline = monotonicNanoseconds() + 10_000_000_000
        var previous = UInt64.max
        var stalled = 0
        while monotonicNanoseconds() < deadline {
            guard let remaining = freshLatency() else { return }
            if remaining < 5_000 { return }
            stalled = remaining + 1_000 >= previous ? stalled + 1 : 0
            if stalled >= 2 { return }
            previous = remaining
            usleep(useconds_t(min(remaining, 20_000)))
        }
    }

    /// The stream's latency in microseconds, just updated from the server (0 when the server
    /// has played past what was written); nil when the stream is gone.
    private func freshLatency() -> UInt64? {
        pulse.mainloopLock(mainloop)
        defer { pulse.mainloopUnlock(mainloop) }
        let userdata = Unmanaged.passUnretained(waker).toOpaque()
        if let operation = pulse.streamUpdateTimingInfo(stream, { _, _, waker in LoopWaker.wake(waker) }, userdata) {
            // A failing stream or context signals too (their state callbacks), cancelling this.
            while pulse.operationGetState(operation) == OTC_PA_OPERATION_RUNNING,
                pulse.streamGetState(stream) == OTC_PA_STREAM_READY
            {
                pulse.mainloopWait(mainloop)
            }
            pulse.operationUnref(operation)
        }
        guard pulse.streamGetState(stream) == OTC_PA_STREAM_READY else { return nil }
        var latency: pa_usec_t = 0
        var negative: Int32 = 0
        guard pulse.streamGetLatency(stream, &latency, &negative) == 0 else { return 0 }
        return negative != 0 ? 0 : latency
    }

    public func close() {
        Self.release(mainloop: mainloop, context: context, stream: stream, pulse)
    }

    /// Tears down in pa_simple_free's order; the main loop thread is stopped first, so no
    /// callback runs afterwards.
    private static func release(
        mainloop: OpaquePointer, context: OpaquePointer, stream: OpaquePointer?, _ pulse: PulseFunctions
    ) {
        pulse.mainloopStop(mainloop)
        if let stream { pulse.streamUnref(stream) }
        pulse.contextDisconnect(context)
        pulse.contextUnref(context)
        pulse.mainloopFree(mainloop)
    }

    /// `duration` in microseconds, libpulse's unit of time.
    private static func microseconds(_ duration: Duration) -> pa_usec_t {
        pa_usec_t(clamping: duration.microsecondsRoundedUp)
    }

    private static func reason(_ context: OpaquePointer, _ pulse: PulseFunctions) -> String {
        let code = pulse.contextErrno(context)
        return pulse.strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
}

/// What libpulse's callbacks reach through their user data: the loop to wake, and whether the
/// connection's deadline has passed (set by a timer on libpulse's thread with the main loop locked,
/// read with it locked).
private final class LoopWaker {
    let mainloop: OpaquePointer
    let pulse: PulseFunctions
    var deadlinePassed = false

    init(mainloop: OpaquePointer, pulse: PulseFunctions) {
        self.mainloop = mainloop
        self.pulse = pulse
    }

    /// A state change or an answer: wakes the thread waiting in `pa_threaded_mainloop_wait`.
    static func wake(_ box: UnsafeMutableRawPointer?) {
        guard let box else { return }
        let waker = Unmanaged<LoopWaker>.fromOpaque(box).takeUnretainedValue()
        waker.pulse.mainloopSignal(waker.mainloop, 0)
    }

    /// The connection's timer fired.
    static func passDeadline(_ box: UnsafeMutableRawPointer?) {
        guard let box else { return }
        let waker = Unmanaged<LoopWaker>.fromOpaque(box).takeUnretainedValue()
        waker.deadlinePassed = true
        waker.pulse.mainloopSignal(waker.mainloop, 0)
    }
}

/// The closures waiting for the server to acknowledge a flush (see `PulseAudioSink.interrupt`).
private final class Acknowledgements {
    var pending: [@Sendable () -> Void] = []

    /// A flush's answer, on libpulse's thread with the main loop locked.
    static func answer(_ box: UnsafeMutableRawPointer?) {
        guard let box else { return }
        let acknowledgements = Unmanaged<Acknowledgements>.fromOpaque(box).takeUnretainedValue()
        guard !acknowledgements.pending.isEmpty else { return }
        acknowledgements.pending.removeFirst()()
    }
}
