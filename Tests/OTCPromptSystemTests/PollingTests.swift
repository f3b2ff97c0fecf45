import Glibc
import OTCPromptSystem
import Testing

/// The one poll-until-a-deadline loop: it asks at once, again after each pause, once more after the last pause,
/// and never past it.
@Suite struct PollingTests {
    @Test func whatHoldsAtOnceIsAskedOnceWithoutAPause() {
        var asked = 0
        let start = MonotonicInstant.now
        #expect(
            Polling.until(within: .seconds(10), every: .seconds(10)) {
                asked += 1
                return true
            })
        #expect(asked == 1)
        #expect(MonotonicInstant.now - start < .seconds(5))
    }

    @Test func itAsksAgainAfterEachPauseUntilTheAnswerIsTrue() {
        var asked = 0
        let start = MonotonicInstant.now
        #expect(
            Polling.until(within: .seconds(30), every: .milliseconds(20)) {
                asked += 1
                return asked == 3
            })
        #expect(asked == 3)
        // Two pauses between three questions.
        #expect(MonotonicInstant.now - start >= .milliseconds(40))
    }

    @Test func whatNeverHoldsIsFalseAtTheDeadlineAndAskedOnceMoreAfterTheLastPause() throws {
        var times: [MonotonicInstant] = []
        let start = MonotonicInstant.now
        let held = Polling.until(within: .milliseconds(100), every: .milliseconds(30)) {
            times.append(.now)
            return false
        }
        #expect(!held)
        let last = try #require(times.last)
        #expect(last - start >= .milliseconds(100), "the last question comes at or past the deadline")
        // Past it, no pause follows: the answer after the last pause is the last one asked.
        #expect(times.dropLast().allSatisfy { $0 - start < .milliseconds(100) }, "\(times.map { $0 - start })")
        #expect(times.count >= 2)
    }

    @Test func withNoTimeAtAllItStillAsksOnce() {
        var asked = 0
        #expect(
            !Polling.until(within: .zero, every: .seconds(10)) {
                asked += 1
                return false
            })
        #expect(asked == 1)
    }
}
