// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// A point in time on CLOCK_MONOTONIC, for deadlines and elapsed times: the one clock of every module.
///
/// What `ContinuousClock.Instant` gave, without its cost: `ContinuousClock` lives in Swift Concurrency,
/// which links `_Concurrency` and libdispatch into the static binary (0.55 MB, and about 0.8 MiB resident in
/// every run; the footprint and start-up targets). packaging/check-binary fails when they come back.
public struct MonotonicInstant: Comparable, Hashable, Sendable {
    /// Nanoseconds since an arbitrary point (the boot), never going back: the value `pthread_cond_timedwait`
    /// on a CLOCK_MONOTONIC condition and a trace's timestamps take.
    public let nanoseconds: Int64

    @inlinable public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// The present instant. The corresponding C function is `clock_gettime`.
    @inlinable public static var now: MonotonicInstant {
        var time = Glibc.timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return MonotonicInstant(nanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }

    /// This instant as an absolute `timespec` on CLOCK_MONOTONIC (`pthread_cond_timedwait`).
    @inlinable public var timespec: Glibc.timespec {
        let nanoseconds = max(0, nanoseconds)
        return Glibc.timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }

    /// This instant moved by `duration`, saturating instead of overflowing (a "never" deadline stays far away).
    @inlinable public func advanced(by duration: Duration) -> MonotonicInstant {
        let offset = duration.nanosecondsRoundedUp
        let (sum, past) = nanoseconds.addingReportingOverflow(offset)
        return MonotonicInstant(nanoseconds: past ? (offset < 0 ? Int64.min : Int64.max) : sum)
    }

    /// How long from this instant to `other` (negative when `other` is earlier).
    @inlinable public func duration(to other: MonotonicInstant) -> Duration {
        let (difference, overflowed) = other.nanoseconds.subtractingReportingOverflow(nanoseconds)
        guard overflowed else { return .nanoseconds(difference) }
        return .nanoseconds(other.nanoseconds < nanoseconds ? Int64.min : Int64.max)
    }

    @inlinable public static func + (instant: MonotonicInstant, duration: Duration) -> MonotonicInstant {
        instant.advanced(by: duration)
    }

    @inlinable public static func - (later: MonotonicInstant, earlier: MonotonicInstant) -> Duration {
        earlier.duration(to: later)
    }

    @inlinable public static func < (a: MonotonicInstant, b: MonotonicInstant) -> Bool {
        a.nanoseconds < b.nanoseconds
    }
}
