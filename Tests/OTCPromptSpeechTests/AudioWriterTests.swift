import Foundation
import Testing

@testable import OTCPromptSpeech

#if canImport(Glibc)
    import Glibc
#endif

/// A device as the writer sees it, recording what it is asked and on which thread: paced or not,
/// with an interrupt that drops what was written before it (PulseAudio's kind) or not.
private final class ThreadRecordingSink: AudioSink, @unchecked Sendable {
    enum Event: Equatable {
        /// A chunk, named by its first sample; `onCaller`: written on the test's own thread.
        case write(Int16, onCaller: Bool)
        case flush
        case interrupt
    }

    private let lock = NSCondition()
    private var recorded: [Event] = []
    private let caller = pthread_self()
    /// The 1-based number of a write to hold until `release()`, or 0.
    private var holdWrite: Int
    private var writes = 0
    let pacing: AudioPacing?
    let interruptDropsWrittenAudio: Bool

    init(paced: Bool, interruptDropsWrittenAudio: Bool, holdWrite: Int = 0) {
        pacing = paced ? AudioPacing(sampleRate: 22_050, leadMilliseconds: 50) : nil
        self.interruptDropsWrittenAudio = interruptDropsWrittenAudio
        self.holdWrite = holdWrite
    }

    var events: [Event] { lock.withLock { recorded } }

    func write(_ chunk: UnsafeBufferPointer<Int16>) {
        lock.withLock {
            writes += 1
            recorded.append(.write(chunk.first ?? 0, onCaller: pthread_equal(pthread_self(), caller) != 0))
            lock.broadcast()
            let deadline = Date().addingTimeInterval(10)
            while holdWrite == writes, lock.wait(until: deadline) {}
        }
    }

    /// Waits (at most 10 s) until `count` writes have begun.
    func waitForWrites(_ count: Int) -> Bool {
        lock.withLock {
            let deadline = Date().addingTimeInterval(10)
            while writes < count { if !lock.wait(until: deadline) { return false } }
            return true
        }
    }

    func release() {
        lock.withLock {
            holdWrite = 0
            lock.broadcast()
        }
    }

    func flush() { lock.withLock { recorded.append(.flush) } }
    func interrupt(acknowledged: @escaping @Sendable () -> Void) {
        lock.withLock { recorded.append(.interrupt) }
        acknowledged()
    }
    func drain() {}
    func close() {}
}

/// The writer as the synthesis thread drives it: this test's thread stands in for that one.
private struct DrivenWriter {
    let writer: AudioWriter
    let generations = GenerationCounter()

    init(_ sink: ThreadRecordingSink) throws {
        writer = AudioWriter(sink: sink, generations: generations)
        try startThread { [writer] in writer.run() }
    }

    /// What the synthesis thread does for a new announcement: a new generation, the interrupt, then
    /// its chunks, each two samples of the value given (which names the chunk in the sink's events).
    func announce(_ chunks: Int16...) {
        let generation = generations.next()
        writer.interruptDevice()
        for chunk in chunks { writer.enqueue([chunk, chunk], generation: generation) }
    }

    /// Closes the writer; true once the sink is closed.
    func closes() -> Bool {
        writer.close()
        return writer.waitUntilClosed(deadline: monotonicNanoseconds() + 10_000_000_000)
    }
}

/// Waits until the writer is idle and has had 20 ms to take any wake-up still on its way: a
/// writer thread that runs its loop after the test's next generation has begun flushes on its own,
/// which is right, but not the case a test means to set up.
private func settled(_ writer: AudioWriter) -> Bool {
    let idle = writer.waitUntilIdle(deadline: monotonicNanoseconds() + 10_000_000_000)
    usleep(20_000)
    return idle
}

/// The events without the thread each write came from.
private func order(_ events: [ThreadRecordingSink.Event]) -> [ThreadRecordingSink.Event] {
    events.map { event in
        if case .write(let first, _) = event { return .write(first, onCaller: false) }
        return event
    }
}

@Suite struct AudioWriterTests {
    @Test func anAnnouncementsFirstChunkIsWrittenOnTheSynthesisThreadWhenTheWriterIsIdle() throws {
        let sink = ThreadRecordingSink(paced: true, interruptDropsWrittenAudio: true)
        let driven = try DrivenWriter(sink)
        driven.announce(1, 2)
        #expect(sink.waitForWrites(2))
        #expect(settled(driven.writer))
        // A key supersedes it: the interrupt dropped all of it, so no second flush, and the new
        // announcement's first chunk is again written at once, on this thread.
        driven.announce(3, 4)
        #expect(sink.waitForWrites(4))
        #expect(settled(driven.writer))
        #expect(
            sink.events == [
                .interrupt, .write(1, onCaller: true), .write(2, onCaller: false),
                .interrupt, .write(3, onCaller: true), .write(4, onCaller: false),
            ])
        #expect(driven.closes())
    }

    @Test func whileTheWriterIsInAWriteTheNextAnnouncementWaitsForItAndItsFlush() throws {
        // The writer's chunk 2 is held in the device: the interrupt cannot cover it, so the new
        // announcement's first chunk must not overtake it, and a flush must come between them.
        let sink = ThreadRecordingSink(paced: true, interruptDropsWrittenAudio: true, holdWrite: 2)
        let driven = try DrivenWriter(sink)
        driven.announce(1, 2)
        #expect(sink.waitForWrites(2))
        driven.announce(3)
        #expect(!sink.events.contains(.write(3, onCaller: true)))
        sink.release()
        #expect(sink.waitForWrites(3))
        #expect(settled(driven.writer))
        #expect(
            sink.events == [
                .interrupt, .write(1, onCaller: true), .write(2, onCaller: false),
                .interrupt, .flush, .write(3, onCaller: false),
            ])
        #expect(driven.closes())
    }

    @Test(arguments: [
        (paced: false, interruptDropsWrittenAudio: false),
        (paced: true, interruptDropsWrittenAudio: false),
        (paced: false, interruptDropsWrittenAudio: true),
    ])
    func otherSinksGetASupersedingAnnouncementFromTheWriterAfterItsFlush(
        paced: Bool, interruptDropsWrittenAudio: Bool
    ) throws {
        // Unpaced: a write may block for a chunk's length, which must not hold the synthesis
        // thread from a newer key, so the writer writes every chunk. An interrupt that keeps
        // written audio: the writer's flush is the one that drops it, so the new announcement
        // waits for the writer (the first one, with nothing stale, is written at once if paced).
        let sink = ThreadRecordingSink(paced: paced, interruptDropsWrittenAudio: interruptDropsWrittenAudio)
        let driven = try DrivenWriter(sink)
        driven.announce(1)
        #expect(sink.waitForWrites(1))
        #expect(settled(driven.writer))
        driven.announce(2)
        #expect(sink.waitForWrites(2))
        #expect(settled(driven.writer))
        let expected: [ThreadRecordingSink.Event] =
            interruptDropsWrittenAudio
            ? [.interrupt, .write(1, onCaller: false), .interrupt, .write(2, onCaller: false)]
            : [.interrupt, .write(1, onCaller: false), .interrupt, .flush, .write(2, onCaller: false)]
        #expect(order(sink.events) == expected)
        if !paced { #expect(!sink.events.contains(.write(1, onCaller: true))) }
        if !paced { #expect(!sink.events.contains(.write(2, onCaller: true))) }
        #expect(driven.closes())
    }
}
