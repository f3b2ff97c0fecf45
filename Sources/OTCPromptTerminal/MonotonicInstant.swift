// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// A point in time on CLOCK_MONOTONIC, for deadlines and elapsed times.
///
/// What `ContinuousClock.Instant` gave, without its cost: `ContinuousClock` lives in Swift Concurrency,
/// which links `_Concurrency` and libdispatch into the static binary (0.55 MB, and about 0.8 MiB resident in
/// every run; the footprint and start-up targets). packaging/check-binary fails when they come back.
public struct MonotonicInstant: Comparable, Hashable, Sendable {
    /// Nanoseconds since an arbitrary point (the boot), never going back.
    private let nanoseconds: Int64

    /// The present instant. The corresponding C function is `clock_gettime`.
    public static var now: MonotonicInstant {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return MonotonicInstant(nanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }

    /// This instant moved by `duration`, saturating instead of overflowing (a "never" deadline stays far away).
    public func advanced(by duration: Duration) -> MonotonicInstant {
        let (seconds, attoseconds) = duration.components
        let (whole, overflowed) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (exact, wrapped) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        let offset = overflowed || wrapped ? (seconds < 0 ? Int64.min : Int64.max) : exact
        let (sum, past) = nanoseconds.addingReportingOverflow(offset)
        return MonotonicInstant(nanoseconds: past ? (offset < 0 ? Int64.min : Int64.max) : sum)
    }

    /// How long from this instant to `other` (negative when `other` is earlier).
    public func duration(to other: MonotonicInstant) -> Duration {
        let (difference, overflowed) = other.nanoseconds.subtractingReportingOverflow(nanoseconds)
        guard overflowed else { return .nanoseconds(difference) }
        return .nanoseconds(other.nanoseconds < nanoseconds ? Int64.min : Int64.max)
    }

    public static func + (instant: MonotonicInstant, duration: Duration) -> MonotonicInstant {
        instant.advanced(by: duration)
    }

    public static func - (later: MonotonicInstant, earlier: MonotonicInstant) -> Duration {
        earlier.duration(to: later)
    }

    public static func < (a: MonotonicInstant, b: MonotonicInstant) -> Bool {
        a.nanoseconds < b.nanoseconds
    }
}
