import Glibc
import OTCPromptTerminal
import Testing

@Suite struct MonotonicInstantTests {
    @Test func aDeadlineIsTheInstantPlusTheDurationAndTheDifferenceComesBack() {
        let start = MonotonicInstant.now
        let deadline = start + .milliseconds(1500)
        #expect(deadline - start == .milliseconds(1500))
        #expect(start.duration(to: deadline) == .milliseconds(1500))
        #expect(deadline.duration(to: start) == .milliseconds(-1500))
        #expect(start < deadline)
    }

    @Test func itFollowsTheMonotonicClock() {
        let before = MonotonicInstant.now
        usleep(20_000)
        let elapsed = MonotonicInstant.now - before
        #expect(elapsed >= .milliseconds(20) && elapsed < .seconds(5), "\(elapsed)")
    }

    @Test func aDeadlineSoFarAwayThatItWouldOverflowStaysInTheFuture() {
        let now = MonotonicInstant.now
        #expect(now + .seconds(Int64.max) > now)
        #expect(now + .seconds(Int64.max / 2_000_000_000) > now)
        #expect(now + .seconds(Int64.min) < now)
    }
}
