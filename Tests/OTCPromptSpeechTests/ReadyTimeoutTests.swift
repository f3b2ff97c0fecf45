import Foundation
import OTCPromptCore
import Testing

@testable import OTCPromptSpeech

extension SpeechTests {
    /// A voice whose device never opens is given up on after the time asked, counted in slices (so that a process
    /// stopped meanwhile is not blamed on the voice); one that opens is taken.
    @Suite struct ReadyTimeoutTests {
        @Test func aDeviceThatNeverOpensIsGivenUpOnAfterTheTimeAsked() throws {
            let opened = DispatchSemaphore(value: 0)
            let backend = EspeakSpeechBackend.start(options: SpeechOptions()) { _ in
                opened.wait()
                return RecordingSink()
            }
            let start = ContinuousClock.now
            #expect {
                try backend.waitUntilReady(timeout: .milliseconds(350))
            } throws: { error in
                if case SpeechError.notReadyInTime = error { return true }
                return false
            }
            let waited = ContinuousClock.now - start
            #expect(waited >= .milliseconds(350), "gave up after \(waited)")
            opened.signal()
            try backend.waitUntilReady(timeout: .seconds(10))
            backend.finish(timeout: .seconds(1))
        }
    }
}
