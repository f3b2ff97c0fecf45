import Foundation
import OTCPromptCore
import Testing

@testable import OTCPromptSpeech

extension SpeechTests {
    /// A voice that mostly waits lets its device go once its last sound is out, tells whoever asked, and opens a new
    /// one for the next announcement, as its start-up did.
    @Suite struct DeviceReleaseTests {
        @Test func aSilentVoiceClosesItsDeviceAndOpensANewOneForTheNextAnnouncement() throws {
            let sinks = OpenedSinks()
            let backend = EspeakSpeechBackend.start(
                options: SpeechOptions(), releaseAfterSilence: DeviceRelease(after: .milliseconds(50))
            ) {
                _ in sinks.open()
            }
            try backend.waitUntilReady()
            backend.speak(Announcement(.prompt, "Waiting for password requests."))
            #expect(sinks.wait { $0.count == 1 && $0[0].events.last == .close }, "\(sinks.all.map(\.events))")
            backend.speak(Announcement(.prompt, "Passphrase for backup"))
            #expect(sinks.wait { $0.count == 2 && $0[1].writtenSampleCount > 0 })
            backend.finish(timeout: .seconds(10))
            #expect(sinks.all.count == 2)
            #expect(sinks.all.allSatisfy { $0.events.last == .close })
        }

        @Test func theLastWordsAfterTheDeviceWasLetGoAreStillPlayedToTheirEnd() throws {
            let sinks = OpenedSinks()
            let backend = EspeakSpeechBackend.start(
                options: SpeechOptions(), releaseAfterSilence: DeviceRelease(after: .milliseconds(50))
            ) {
                _ in sinks.open()
            }
            try backend.waitUntilReady()
            backend.speak(Announcement(.prompt, "Waiting"))
            #expect(sinks.wait { $0.count == 1 && $0[0].events.last == .close })
            // Said and finished at once, as a prompt's last words are: the device is opened again for them.
            backend.speak(Announcement(.cancel, "Agent stopped"))
            backend.finish(timeout: .seconds(10))
            let last = try #require(sinks.all.last)
            #expect(sinks.all.count == 2)
            #expect(last.writtenSampleCount > 4_000)
            #expect(last.events.suffix(2) == [.drain, .close])
        }

        @Test func eachReleaseIsToldOnceAfterTheDeviceHasGone() throws {
            let sinks = OpenedSinks()
            let told = ReleaseCount(sinks: sinks)
            let release = DeviceRelease(after: .milliseconds(50)) { told.record() }
            let backend = EspeakSpeechBackend.start(options: SpeechOptions(), releaseAfterSilence: release) {
                _ in sinks.open()
            }
            try backend.waitUntilReady()
            #expect(told.count == 0, "nothing let go before anything was said")
            backend.speak(Announcement(.prompt, "Waiting"))
            #expect(sinks.wait { _ in told.count == 1 })
            backend.speak(Announcement(.prompt, "Waiting again"))
            #expect(sinks.wait { _ in told.count == 2 })
            // Told only once the device had gone: the stream closed each time first.
            #expect(told.closedWhenTold == [1, 2])
            backend.finish(timeout: .seconds(10))
            #expect(told.count == 2)
        }

        @Test func withoutAReleaseDelayTheDeviceIsKeptForTheWholePrompt() throws {
            let sinks = OpenedSinks()
            let backend = EspeakSpeechBackend.start(options: SpeechOptions()) { _ in sinks.open() }
            try backend.waitUntilReady()
            backend.speak(Announcement(.prompt, "One"))
            #expect(sinks.wait { $0.first.map { $0.writtenSampleCount > 0 } ?? false })
            usleep(100_000)
            backend.speak(Announcement(.prompt, "Two"))
            backend.finish(timeout: .seconds(10))
            #expect(sinks.all.count == 1)
        }
    }
}

/// Every sink the backend opened, in order.
private final class OpenedSinks: @unchecked Sendable {
    private let lock = NSCondition()
    private var sinks: [RecordingSink] = []

    var all: [RecordingSink] { lock.withLock { sinks } }

    func open() -> RecordingSink {
        lock.withLock {
            let sink = RecordingSink()
            sinks.append(sink)
            return sink
        }
    }

    /// Waits (at most 10 s) until `condition` holds of the sinks opened so far.
    func wait(until condition: ([RecordingSink]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if condition(all) { return true }
            usleep(5_000)
        }
        return false
    }
}

/// How often the backend told of a release, and how many sinks were closed each time.
private final class ReleaseCount: @unchecked Sendable {
    private let lock = NSLock()
    private let sinks: OpenedSinks
    private var closed: [Int] = []

    init(sinks: OpenedSinks) {
        self.sinks = sinks
    }

    var count: Int { lock.withLock { closed.count } }
    var closedWhenTold: [Int] { lock.withLock { closed } }

    func record() {
        let closedNow = sinks.all.filter { $0.events.last == .close }.count
        lock.withLock { closed.append(closedNow) }
    }
}
