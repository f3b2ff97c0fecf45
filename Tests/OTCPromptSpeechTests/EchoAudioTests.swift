import Foundation
import OTCPromptCore
import OTCPromptTestSupport
import Testing

@testable import OTCPromptSpeech

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct EchoAudioCacheTests {
    @Test func keptAudioComesBackAsItWasGiven() {
        var cache = EchoAudioCache(sampleBudget: 100)
        cache.store([[1, 2], [3]], for: "9")
        #expect(cache.audio(for: "9") == [[1, 2], [3]])
        #expect(cache.audio(for: "8") == nil)
        #expect(cache.samples == 3)
    }

    @Test func theLeastRecentlyHeardIsForgottenFirst() {
        var cache = EchoAudioCache(sampleBudget: 10)
        cache.store([[1, 1, 1, 1]], for: "1")
        cache.store([[2, 2, 2, 2]], for: "2")
        _ = cache.audio(for: "1")  // now heard after "2"
        cache.store([[3, 3, 3, 3]], for: "3")
        #expect(cache.audio(for: "2") == nil)
        #expect(cache.audio(for: "1") != nil && cache.audio(for: "3") != nil)
        #expect(cache.samples == 8)
    }

    @Test func audioLargerThanTheBudgetOrEmptyIsNotKept() {
        var cache = EchoAudioCache(sampleBudget: 4)
        cache.store([[1, 1, 1, 1]], for: "1")
        cache.store([[9, 9, 9], [9, 9]], for: "long")
        cache.store([], for: "silent")
        #expect(cache.audio(for: "long") == nil && cache.audio(for: "silent") == nil)
        #expect(cache.audio(for: "1") == [[1, 1, 1, 1]], "a refused store forgets nothing")
    }

    @Test func wipingForgetsEverything() {
        var cache = EchoAudioCache(sampleBudget: 10)
        cache.store([[1, 2], [3]], for: "9")
        cache.wipe()
        #expect(cache.audio(for: "9") == nil && cache.samples == 0)
    }

    @Test func storingTheSameTextAgainReplacesIt() {
        var cache = EchoAudioCache(sampleBudget: 10)
        cache.store([[1, 1, 1]], for: "9")
        cache.store([[2, 2]], for: "9")
        #expect(cache.audio(for: "9") == [[2, 2]])
        #expect(cache.samples == 2)
    }
}

/// A device like PulseAudio's stream (paced, an interrupt that drops what was written before it),
/// recording each write's samples and whether it came from the test's own thread.
private final class EchoRecordingSink: AudioSink, @unchecked Sendable {
    struct Write {
        var samples: [Int16]
        var onCaller: Bool
    }

    private let lock = NSCondition()
    private var recorded: [Write] = []
    private var lastWrite = Date.distantPast
    private let caller = pthread_self()
    let pacing: AudioPacing? = AudioPacing(sampleRate: 22_050, leadMilliseconds: 50)
    let interruptDropsWrittenAudio = true

    var writes: [Write] { lock.withLock { recorded } }

    func write(_ chunk: UnsafeBufferPointer<Int16>) {
        lock.withLock {
            recorded.append(Write(samples: Array(chunk), onCaller: pthread_equal(pthread_self(), caller) != 0))
            lastWrite = Date()
        }
    }

    /// Waits (at most 10 s) until more than `count` writes have come and none for 300 ms.
    func waitUntilQuiet(after count: Int) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let (written, quietSince) = lock.withLock { (recorded.count, lastWrite) }
            if written > count && Date().timeIntervalSince(quietSince) > 0.3 { return true }
            usleep(20_000)
        }
        return false
    }

    func flush() {}
    func interrupt(acknowledged: @escaping @Sendable () -> Void) { acknowledged() }
    func drain() {}
    func close() {}
}

extension SpeechTests {
    /// A key echo heard before is played from the kept audio on the caller's thread, sample for
    /// sample as espeak-ng first synthesised it; other announcements are synthesised each time.
    @Suite struct EchoReplayTests {
        /// Speaks each announcement in turn, each to its end; the writes of each.
        private func spoken(_ announcements: [Announcement]) throws -> [[EchoRecordingSink.Write]] {
            let sink = EchoRecordingSink()
            let backend = EspeakSpeechBackend.start(options: SpeechOptions()) { _ in sink }
            try backend.waitUntilReady()
            var result: [[EchoRecordingSink.Write]] = []
            for announcement in announcements {
                let before = sink.writes.count
                backend.speak(announcement)
                #expect(sink.waitUntilQuiet(after: before))
                result.append(Array(sink.writes[before...]))
            }
            backend.finish(timeout: .seconds(10))
            return result
        }

        private static func audio(_ writes: [EchoRecordingSink.Write]) -> [Int16] {
            writes.flatMap(\.samples)
        }

        @Test func aKeyHeardBeforeIsReplayedOnTheCallersThreadAsFirstSynthesised() throws {
            let nine = Announcement(.digit, "\(spelled: "9")")
            let deleted = Announcement(.delete, "deleted \(spelled: "9")")
            let heard = try spoken([nine, deleted, nine, deleted])
            #expect(heard.allSatisfy { !$0.isEmpty })
            // The first time, the synthesis thread writes: nothing comes from the caller's thread.
            #expect(!heard[0].contains { $0.onCaller } && !heard[1].contains { $0.onCaller })
            // Again: the first chunk from the caller's thread, the rest at the writer's pace.
            #expect(heard[2].first?.onCaller == true && heard[3].first?.onCaller == true)
            let sameNine = Self.audio(heard[2]) == Self.audio(heard[0])
            let sameDeletion = Self.audio(heard[3]) == Self.audio(heard[1])
            let different = Self.audio(heard[0]) != Self.audio(heard[1])
            #expect(sameNine && sameDeletion && different)
        }

        @Test func anAnnouncementThatIsNoKeyEchoIsSynthesisedEachTime() throws {
            let prompt = Announcement(.prompt, "\(spelled: "9")")
            let heard = try spoken([prompt, prompt])
            #expect(heard.allSatisfy { !$0.isEmpty && !$0.contains { $0.onCaller } })
        }
    }
}
