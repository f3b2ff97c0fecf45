import Glibc
import OTCPromptSystem
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
        // Seconds that fit, plus the fraction that tips them over, saturate too.
        let edge = Duration.seconds(Int64.max / 1_000_000_000) + .nanoseconds(999_999_999)
        #expect(now + edge > now)
    }

    @Test func theTimeBetweenTwoFarApartInstantsSaturatesInsteadOfTrapping() {
        let never = MonotonicInstant.now + .seconds(Int64.max)
        let longAgo = MonotonicInstant.now + .seconds(Int64.min)
        #expect(longAgo.duration(to: never) == .nanoseconds(Int64.max))
        #expect(never.duration(to: longAgo) == .nanoseconds(Int64.min))
    }
}
