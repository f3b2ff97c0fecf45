import Foundation
import OTCPromptCore
import Testing

@testable import OTCPromptSpeech

/// Every test of this target runs one at a time: espeak-ng is process-global, and the
/// no-device test diverts fd 2, which parallel tests' output must not reach.
@Suite(.serialized) struct SpeechTests {}

/// One event at the sink, in order.
enum SinkEvent: Equatable {
    case write(Int)
    case flush
    case drain
    case close
}

/// A sink that records what it is asked to do; its first write can be held until released,
/// so a test can supersede an utterance while the device is playing it.
final class RecordingSink: AudioSink, @unchecked Sendable {
    private let lock = NSCondition()
    private var recorded: [SinkEvent] = []
    private var samples: [Int16] = []
    private var holdFirstWrite: Bool
    private var firstWriteStarted = false

    init(holdFirstWrite: Bool = false) {
        self.holdFirstWrite = holdFirstWrite
    }

    var events: [SinkEvent] { lock.withLock { recorded } }
    var allSamples: [Int16] { lock.withLock { samples } }
    var writtenSampleCount: Int { lock.withLock { samples.count } }

    func write(_ chunk: UnsafeBufferPointer<Int16>) {
        lock.withLock {
            recorded.append(.write(chunk.count))
            samples.append(contentsOf: chunk)
            firstWriteStarted = true
            lock.broadcast()
            let deadline = Date().addingTimeInterval(10)
            while holdFirstWrite, lock.wait(until: deadline) {}
            holdFirstWrite = false
        }
    }

    /// Waits (at most 10 s) until the first write is in progress.
    func waitForFirstWrite() -> Bool {
        lock.withLock {
            let deadline = Date().addingTimeInterval(10)
            while !firstWriteStarted { if !lock.wait(until: deadline) { return false } }
            return true
        }
    }

    func releaseFirstWrite() {
        lock.withLock {
            holdFirstWrite = false
            lock.broadcast()
        }
    }

    func flush() { lock.withLock { recorded.append(.flush) } }
    func drain() { lock.withLock { recorded.append(.drain) } }
    func close() { lock.withLock { recorded.append(.close) } }
}

/// Speaks `announcement` to a recording sink and returns the samples that reached it.
func samplesSpoken(_ announcement: Announcement, options: SpeechOptions = SpeechOptions()) throws -> [Int16] {
    let sink = RecordingSink()
    let backend = EspeakSpeechBackend.start(options: options) { _ in sink }
    try backend.waitUntilReady()
    backend.speak(announcement)
    backend.finish(timeout: .seconds(10))
    return sink.allSamples
}

/// Runs `body` with a fresh engine on the calling thread (the suite is serialized).
func withEngine<T>(_ options: SpeechOptions = SpeechOptions(), _ body: (EspeakEngine) throws -> T) throws -> T {
    let engine = try EspeakEngine(options: options)
    defer { engine.terminate() }
    return try body(engine)
}

