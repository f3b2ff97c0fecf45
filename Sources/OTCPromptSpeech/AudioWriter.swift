import Synchronization

/// The generation of the newest announcement: anything older is stale and must fall silent.
final class GenerationCounter: Sendable {
    private let value = Atomic<UInt64>(0)

    var current: UInt64 { value.load(ordering: .acquiring) }

    /// Starts a new generation, making every older one stale; returns it.
    func next() -> UInt64 {
        value.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
    }
}

/// The thread that feeds the sink: writes chunks of the current generation at the device's
/// pace, drops stale ones, and flushes the device as soon as an announcement is superseded.
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
    /// For a paced sink: when the audio handed over since the last flush or underrun began, and
    /// how many samples it holds.
    private var pacedSince: UInt64?
    private var pacedSamples = 0

    init(sink: any AudioSink, generations: GenerationCounter) {
        self.sink = sink
        self.generations = generations
    }

    /// Queues one chunk of `generation`'s audio; called from the synthesis thread.
    func enqueue(_ samples: [Int16], generation: UInt64) {
        lock.withLock {
            queue.append(Chunk(generation: generation, samples: samples))
            lock.broadcast()
        }
    }

    /// Wakes the writer so it notices a new generation and flushes the stale audio at once.
    func wake() {
        lock.withLock { lock.broadcast() }
    }

    /// Cuts the device's stale audio from the synthesis thread, even while the writer is in a write.
    func interruptDevice() {
        let generation = generations.current
        sink.interrupt { [trace] in trace?.record("stopped", generation: generation) }
        trace?.record("interrupted", generation: generation)
    }

    /// Plays what is queued to its end, then closes the sink.
    func close() {
        lock.withLock {
            closing = true
            lock.broadcast()
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

    /// The writer thread's body.
    func run() {
        lock.withLock {
            while true {
                let current = generations.current
                if queueHead < queue.count, queue[queueHead].generation < current {
                    queueHead += 1
                    continue
                }
                if let held = deviceGeneration, held < current {
                    deviceGeneration = nil
                    pacedSince = nil
                    lock.unlocked { sink.flush() }
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
                    deviceGeneration = chunk.generation
                    if let trace, chunk.generation != tracedGeneration {
                        tracedGeneration = chunk.generation
                        trace.record("sample", generation: chunk.generation)
                    }
                    if sink.pacing != nil {
                        if pacedSince == nil {
                            pacedSince = monotonicNanoseconds()
                            pacedSamples = 0
                        }
                        pacedSamples += chunk.samples.count
                    }
                    lock.unlocked { chunk.samples.withUnsafeBufferPointer { sink.write($0) } }
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
