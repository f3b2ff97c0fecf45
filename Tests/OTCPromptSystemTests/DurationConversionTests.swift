// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import Testing

@testable import OTCPromptSystem

/// The one rounding rule, at its edges: a fraction rounds up, a count that does not fit saturates, and a
/// wait (timespec, poll) takes a negative duration as zero.
@Suite struct DurationConversionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let duration: Duration
        let nanoseconds: Int64
        let microseconds: Int64
        let milliseconds: Int64
        let pollTimeout: Int32
        var testDescription: String { "\(duration)" }
    }

    static let cases: [Case] = [
        Case(duration: .zero, nanoseconds: 0, microseconds: 0, milliseconds: 0, pollTimeout: 0),
        Case(duration: .nanoseconds(1), nanoseconds: 1, microseconds: 1, milliseconds: 1, pollTimeout: 1),
        // A sub-nanosecond fraction still rounds up: a wait never ends early.
        Case(
            duration: .init(secondsComponent: 0, attosecondsComponent: 1),
            nanoseconds: 1, microseconds: 1, milliseconds: 1, pollTimeout: 1),
        Case(duration: .microseconds(999), nanoseconds: 999_000, microseconds: 999, milliseconds: 1, pollTimeout: 1),
        Case(duration: .milliseconds(1), nanoseconds: 1_000_000, microseconds: 1_000, milliseconds: 1, pollTimeout: 1),
        Case(
            duration: .nanoseconds(1_000_001), nanoseconds: 1_000_001, microseconds: 1_001, milliseconds: 2,
            pollTimeout: 2),
        Case(
            duration: .milliseconds(1500), nanoseconds: 1_500_000_000, microseconds: 1_500_000, milliseconds: 1_500,
            pollTimeout: 1_500),
        // Negative: a fraction rounds up toward zero, and a wait is already over.
        Case(duration: .nanoseconds(-1), nanoseconds: -1, microseconds: 0, milliseconds: 0, pollTimeout: 0),
        Case(
            duration: .microseconds(-1500), nanoseconds: -1_500_000, microseconds: -1_500, milliseconds: -1,
            pollTimeout: 0),
        Case(
            duration: .seconds(-3), nanoseconds: -3_000_000_000, microseconds: -3_000_000, milliseconds: -3_000,
            pollTimeout: 0),
        // Huge: nanoseconds saturate past ~292 years; poll's Int32 saturates past ~24 days.
        Case(
            duration: .seconds(30 * 86_400), nanoseconds: 2_592_000_000_000_000, microseconds: 2_592_000_000_000,
            milliseconds: 2_592_000_000, pollTimeout: .max),
        Case(
            duration: .seconds(Int64.max), nanoseconds: .max, microseconds: .max, milliseconds: .max,
            pollTimeout: .max),
        Case(
            duration: .seconds(Int64.min), nanoseconds: .min, microseconds: .min, milliseconds: .min,
            pollTimeout: 0),
    ]

    @Test(arguments: cases) func eachUnitRoundsUpAndSaturates(_ example: Case) {
        #expect(example.duration.nanosecondsRoundedUp == example.nanoseconds)
        #expect(example.duration.microsecondsRoundedUp == example.microseconds)
        #expect(example.duration.millisecondsRoundedUp == example.milliseconds)
        #expect(example.duration.pollTimeout == example.pollTimeout)
    }

    @Test func aTimespecSplitsRoundedUpNanosecondsAndClampsNegativeToZero() {
        let split = Duration(secondsComponent: 2, attosecondsComponent: 500_000_000_000_000_001).timespec
        #expect(split.tv_sec == 2 && split.tv_nsec == 500_000_001)
        let past = Duration.milliseconds(-5).timespec
        #expect(past.tv_sec == 0 && past.tv_nsec == 0)
    }

    @Test func anInstantMovedFarIntoTheFutureOrPastSaturates() {
        let now = MonotonicInstant(nanoseconds: 1_000)
        #expect(now.advanced(by: .seconds(Int64.max)) == MonotonicInstant(nanoseconds: .max))
        #expect(
            MonotonicInstant(nanoseconds: -1).advanced(by: .seconds(Int64.min)) == MonotonicInstant(nanoseconds: .min))
        #expect(now.advanced(by: .nanoseconds(-1_000)) == MonotonicInstant(nanoseconds: 0))
    }

    @Test func theClockNeverGoesBack() {
        let first = MonotonicInstant.now
        let second = MonotonicInstant.now
        #expect(first <= second)
        #expect(first.duration(to: second) >= .zero)
    }

    @Test func anInstantAsATimespecIsItsNanosecondsSplit() {
        let time = MonotonicInstant(nanoseconds: 3_000_000_007).timespec
        #expect(time.tv_sec == 3 && time.tv_nsec == 7)
    }
}
