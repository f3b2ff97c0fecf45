// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// Every conversion of a `Duration` to a count the C library takes (nanoseconds, microseconds,
/// milliseconds, a `timespec`, a poll timeout) is here, with one rounding rule:
///
/// - a fraction of a unit rounds up (toward +∞), so a wait never ends before its deadline;
/// - a count that does not fit saturates at Int64's bounds (a "never" stays far away);
/// - what is a wait (`timespec`, `pollTimeout`) takes a negative duration as zero: already past.
extension Duration {
    /// Whole nanoseconds, rounded up, saturating.
    @inlinable public var nanosecondsRoundedUp: Int64 { roundedUp(unitsPerSecond: 1_000_000_000) }

    /// Whole microseconds, rounded up, saturating.
    @inlinable public var microsecondsRoundedUp: Int64 { roundedUp(unitsPerSecond: 1_000_000) }

    /// Whole milliseconds, rounded up, saturating.
    @inlinable public var millisecondsRoundedUp: Int64 { roundedUp(unitsPerSecond: 1_000) }

    /// A relative wait for `nanosleep`, `pthread_cond_timedwait` and the like: zero when negative.
    @inlinable public var timespec: Glibc.timespec {
        let nanoseconds = max(0, nanosecondsRoundedUp)
        return Glibc.timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }

    /// `poll`'s timeout: milliseconds rounded up, 0 when already past, at most Int32.max (about 24 days).
    @inlinable public var pollTimeout: Int32 { Int32(clamping: max(0, millisecondsRoundedUp)) }

    /// The duration in units of 1/`unitsPerSecond` s (a divisor of 10^18), rounded up, saturating.
    @inlinable func roundedUp(unitsPerSecond: Int64) -> Int64 {
        let (seconds, attoseconds) = components
        let attosecondsPerUnit = 1_000_000_000_000_000_000 / unitsPerSecond
        // Truncating division rounds a negative fraction up already; only a positive remainder adds one.
        let fraction = attoseconds / attosecondsPerUnit + (attoseconds % attosecondsPerUnit > 0 ? 1 : 0)
        let (whole, overflowed) = seconds.multipliedReportingOverflow(by: unitsPerSecond)
        let (total, wrapped) = whole.addingReportingOverflow(fraction)
        guard !overflowed, !wrapped else { return seconds < 0 ? .min : .max }
        return total
    }
}
