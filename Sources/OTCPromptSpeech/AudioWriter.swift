import OTCPromptSystem
import Synchronization

/// The generation of the newest announcement: anything older is stale and must fall silent.
final class GenerationCounter: Sendable {
    private let value = Atomic<UInt64>(0)
    /// The newest generation whose first sample reached the sink, and when (CLOCK_MONOTONIC nanoseconds).
    private let firstSample = Mutex<(generation: UInt64, at: UInt64)>((0, 0))

    /// When `generation`'s first sample reached the sink; nil while none has.
    func began(_ generation: UInt64) -> UInt64? {
        firstSample.withLock { $0.generation == generation ? $0.at : nil }
    }

    /// Notes that `generation`'s first chunk reaches the sink now: the moment it began to be heard.
    func handedOver(_ generation: UInt64) {
        let now = monotonicNanoseconds()
        firstSample.withLock { if $0.generation < generation { $0 = (generation, now) } }
    }

    var current: UInt64 { value.load(ordering: .acquiring) }

    /// Starts a new generation, making every older one stale; returns it.
    func next() -> UInt64 {
        value.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
    }
}

/// The thread that feeds the sink: writes chunks of the current generation at the device's
/// pace, drops stale ones, and flushes the device as soon as an announcement is superseded.
///
/// An announcement's first chunk may be written by the synthesis thread itself (`enqueue`), so
/// that a key's first sound does not wait for this thread to be scheduled; one thread at a time
/// is in the sink (`sinkBusy`).
final class AudioWriter: @unchecked Sendable {
    private struct Chunk {
        var generation: UInt64
        var samples: [Int16]
    }

    private let sink: any AudioSink
    private let generations: GenerationCounter
    private let lock = ConditionLock()
    private var queue: [Chunk] = []
    private var queueHead = 0
    /// The generation whose audio the device may still hold, until it is flushed.
    private var deviceGeneration: UInt64?
    private var closing = false
    private var closed = false
    private let trace = SpeechTrace.shared
    /// The newest generation whose first chunk has been traced.
    private var tracedGeneration: UInt64 = 0
    /// The newest generation whose first chunk was noted as the moment it began to be heard (`GenerationCounter`).
    private var beganGeneration: UInt64 = 0
    /// For a paced sink: when the audio handed over since the last flush or underrun began, and
    /// how many samples it holds.
    private var pacedSince: UInt64?
    private var pacedSamples = 0
    /// When the audio handed over so far will have been heard, as far as the writer can tell (a paced sink:
    /// from its count; any other: when its last write began, its write setting the pace); from the sink's
    /// opening, so a device that has said nothing yet has been silent since then.
    private var audibleUntil = monotonicNanoseconds()
    /// A thread is in the sink's write, flush or interrupt: the writer, or the synthesis thread.
    private var sinkBusy = false
    /// The newest generation a chunk was handed over for: a newer one's chunk is its first.
    private var enqueuedGeneration: UInt64 = 0

    init(sink: any AudioSink, generations: GenerationCounter) {
        self.sink = sink
        self.generations = generations
    }

    /// Hands over one chunk of `generation`'s audio; called from the synthesis thread.
    ///
    /// An announcement's first chunk is written here, on the calling thread, when the sink is
    /// paced (its write returns at once, so a newer key is not kept waiting), nothing is queued or
    /// being written, and the device holds nothing stale. The writer thread, woken, would otherwise
    /// write it once the scheduler runs it: on a busy 2-core machine that took up to 3 ms, most of
    /// the tail of key -> first sample (docs/performance.md). Every other chunk is queued.
    func enqueue(_ samples: [Int16], generation: UInt64) {
        let writesHere = lock.withLock { () -> Bool in
            dropStaleChunks()
            let first = generation > enqueuedGeneration
            enqueuedGeneration = max(enqueuedGeneration, generation)
            guard first, sink.pacing != nil, !sinkBusy, !closing, queueHead == queue.count,
                deviceGeneration == nil, generation == generations.current, pacedWriteTime() == nil
            else {
                queue.append(Chunk(generation: generation, samples: samples))
                lock.broadcast()
                return false
            }
            sinkBusy = true
            handOver(samples.count, of: generation)
            return true
        }
        guard writesHere else { return }
        samples.withUnsafeBufferPointer { sink.write($0) }
        lock.withLock {
            sinkBusy = false
            lock.broadcast()
        }
    }

    /// The sink takes a write without waiting, and its interrupt leaves nothing stale: audio kept
    /// from an earlier synthesis can be played from the thread that asks for it (`replay`).
    var playsOnCallingThread: Bool { sink.pacing != nil && sink.interruptDropsWrittenAudio }

    /// Cuts the stale audio and plays `chunks`, all of `generation`'s audio, kept from an earlier
    /// synthesis; the first chunk is written on the calling thread when `enqueue` allows it.
    func replay(_ chunks: [[Int16]], generation: UInt64) {
        interruptDevice()
        for chunk in chunks { enqueue(chunk, generation: generation) }
    }

    /// Wakes the writer so it notices a new generation and flushes the stale audio at once.
    func wake() {
        lock.withLock { lock.broadcast() }
    }

    /// Cuts the device's stale audio from the synthesis thread (or a replay's), even while the writer is in a write.
    ///
    /// On a sink whose interrupt drops everything written before it, and with no write under way,
    /// nothing stale is left after it: the sink is held through the interrupt so that no write
    /// begins meanwhile, and the writer's own flush is then not needed.
    func interruptDevice() {
        let generation = generations.current
        let holdsSink =
            sink.interruptDropsWrittenAudio
            && lock.withLock { () -> Bool in
                guard !sinkBusy else { return false }
                sinkBusy = true
                return true
            }
        sink.interrupt { [trace] in trace?.record("stopped", generation: generation) }
        trace?.record("interrupted", generation: generation)
        guard holdsSink else { return }
        lock.withLock {
            if let held = deviceGeneration, held < generation {
                deviceGeneration = nil
                pacedSince = nil
            }
            sinkBusy = false
            lock.broadcast()
        }
    }

    /// Plays what is queued to its end, then closes the sink.
    func close() {
        lock.withLock {
            closing = true
            lock.broadcast()
        }
    }

    /// Waits until nothing is queued and no thread is in the sink, or the monotonic `deadline`
    /// passes; true when idle.
    func waitUntilIdle(deadline: UInt64) -> Bool {
        lock.withLock {
            while sinkBusy || queueHead < queue.count {
                if !lock.wait(until: deadline) { return !sinkBusy && queueHead == queue.count }
            }
            return true
        }
    }

    /// Waits until the sink is closed or the monotonic `deadline` passes; true when closed.
    func waitUntilClosed(deadline: UInt64) -> Bool {
        lock.withLock {
            while !closed {
                if !lock.wait(until: deadline) { return closed }
            }
            return true
        }
    }

    /// The monotonic time by which everything handed over or queued will have been heard, at `sampleRate`
    /// samples a second: when the device falls silent (or fell silent, when nothing is left).
    func heardBy(sampleRate: Int) -> UInt64 {
        lock.withLock {
            let queued = queue[queueHead...].reduce(0) { $0 + UInt64($1.samples.count) }
            guard queued > 0 || sinkBusy else { return audibleUntil }
            return max(audibleUntil, monotonicNanoseconds()) + queued * 1_000_000_000 / UInt64(max(1, sampleRate))
        }
    }

    /// For a paced sink, the monotonic time from which the next chunk may be written: once the
    /// audio already handed over is at most the sink's lead ahead of real time. nil: write now
    /// (not paced, nothing handed over yet, or the device has run dry, which restarts the count).
    private func pacedWriteTime() -> UInt64? {
        guard let pacing = sink.pacing, let since = pacedSince else { return nil }
        let handed = UInt64(pacedSamples) * 1_000_000_000 / UInt64(max(1, pacing.sampleRate))
        let now = monotonicNanoseconds()
        if now >= since + handed {
            pacedSince = nil
            pacedSamples = 0
            return nil
        }
        return since + handed - min(handed, UInt64(pacing.leadMilliseconds) * 1_000_000)
    }

    /// Skips the queued chunks of generations older than the current one: stale, never written.
    private func dropStaleChunks() {
        while queueHead < queue.count, queue[queueHead].generation < generations.current { queueHead += 1 }
    }

    /// Notes `count` samples of `generation` handed to the sink: the device now holds that
    /// generation, its first chunk is traced, and a paced sink's count grows.
    private func handOver(_ count: Int, of generation: UInt64) {
        deviceGeneration = generation
        if generation != beganGeneration {
            beganGeneration = generation
            generations.handedOver(generation)
        }
        if let trace, generation != tracedGeneration {
            tracedGeneration = generation
            trace.record("sample", generation: generation)
        }
        if let pacing = sink.pacing {
            if pacedSince == nil {
                pacedSince = monotonicNanoseconds()
                pacedSamples = 0
            }
            pacedSamples += count
            let handed = UInt64(pacedSamples) * 1_000_000_000 / UInt64(max(1, pacing.sampleRate))
            audibleUntil = (pacedSince ?? 0) + handed
        } else {
            audibleUntil = monotonicNanoseconds()
        }
    }

    /// The writer thread's body.
    func run() {
        lock.withLock {
            while true {
                let current = generations.current
                dropStaleChunks()
                if sinkBusy {
                    lock.wait()
                    continue
                }
                if let held = deviceGeneration, held < current {
                    deviceGeneration = nil
                    pacedSince = nil
                    sinkBusy = true
                    lock.unlocked { sink.flush() }
                    sinkBusy = false
                    lock.broadcast()
                    trace?.record("flushed", generation: current)
                    continue
                }
                if queueHead < queue.count {
                    if let readyAt = pacedWriteTime(), monotonicNanoseconds() < readyAt {
                        lock.wait(until: readyAt)
                        continue
                    }
                    let chunk = queue[queueHead]
                    queueHead += 1
                    if queueHead > 64 {
                        queue.removeFirst(queueHead)
                        queueHead = 0
                    }
                    handOver(chunk.samples.count, of: chunk.generation)
                    sinkBusy = true
                    lock.unlocked { chunk.samples.withUnsafeBufferPointer { sink.write($0) } }
                    sinkBusy = false
                    lock.broadcast()
                    continue
                }
                if closing { break }
                lock.wait()
            }
            lock.unlocked {
                sink.drain()
                sink.close()
            }
            closed = true
            lock.broadcast()
        }
    }
}
