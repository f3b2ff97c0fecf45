/// `--timeout` as arithmetic: time arrives as a value (the time since the prompt started), so the
/// program owns the clock and tests never wait.
///
/// The user is told the time left at a few marks only (30 s and 10 s), never every second: a
/// per-second countdown would redraw the screen and talk over the user's typing.
public struct Countdown: Equatable, Sendable {
    /// The marks at which the time left is announced, largest first.
    public static let marks: [Duration] = [.seconds(30), .seconds(10)]
    /// The longest limit said as one (`--timeout`'s most, a day): a caller's further off (an ask file's `NotAfter`, a
    /// pinentry's SETTIMEOUT) is said as no time limit.
    public static let farthest: Duration = .seconds(86_400)

    public let total: Duration
    /// The marks still to announce, largest first: those that fit in `total` and are not said yet.
    public private(set) var pendingMarks: [Duration]

    /// A mark fits when there is more than that much time at the start (a 30-second limit does
    /// not open with "30 seconds left").
    public init(total: Duration) {
        self.total = total
        self.pendingMarks = Self.marks.filter { $0 < total }
    }

    /// The time left at `now`; never negative.
    public func remaining(at now: Duration) -> Duration {
        max(.zero, total - now)
    }

    public func hasRunOut(at now: Duration) -> Bool {
        now >= total
    }

    /// The mark to announce at `now`, if one is due, and marks it said. When the program wakes
    /// late and several are due at once (after a stop), only the smallest is returned: the older
    /// ones are no longer true. Nothing is due once the time has run out.
    public mutating func markDue(at now: Duration) -> Duration? {
        guard !hasRunOut(at: now) else {
            pendingMarks.removeAll()
            return nil
        }
        let left = remaining(at: now)
        let due = pendingMarks.filter { $0 >= left }
        guard let smallest = due.last else { return nil }
        pendingMarks.removeAll { $0 >= left }
        return smallest
    }

    /// When the program must wake next (time since the start): the next mark, or the end; nil
    /// once the time has run out. May be `now` itself when a mark is already due.
    public func nextDeadline(after now: Duration) -> Duration? {
        guard !hasRunOut(at: now) else { return nil }
        let next = pendingMarks.first.map { total - $0 } ?? total
        return max(now, next)
    }
}

/// How the time left is said: exact near the end, rounded (and said to be) further out, so the
/// words do not promise a precision the moment of speaking cannot keep.
public struct SpokenDuration: Equatable, Sendable {
    public var minutes: Int
    public var seconds: Int
    /// Rounded: said with "about".
    public var isApproximate: Bool

    public init(minutes: Int, seconds: Int, isApproximate: Bool) {
        self.minutes = minutes
        self.seconds = seconds
        self.isApproximate = isApproximate
    }

    /// Up to 10 s: whole seconds, rounded up (never "0 seconds" while time is left). Under a
    /// minute: the nearest whole second (as short to say as a rounded figure, and exact). Beyond:
    /// the nearest 10 s, approximate unless that is (within 50 ms) the exact time, as at the start.
    public init(remaining: Duration) {
        let exact = Double(remaining.components.seconds) + Double(remaining.components.attoseconds) / 1e18
        let total: Int
        if exact <= 10 {
            total = Int(exact.rounded(.up))
            isApproximate = false
        } else if exact < 59.5 {
            total = Int(exact.rounded())
            isApproximate = false
        } else {
            total = Int((exact / 10).rounded() * 10)
            isApproximate = abs(Double(total) - exact) > 0.05
        }
        minutes = total / 60
        seconds = total % 60
    }

    /// A mark (30 s, 10 s) said as it is: the program wakes at it.
    public init(mark: Duration) {
        let total = Int(mark.components.seconds)
        self.init(minutes: total / 60, seconds: total % 60, isApproximate: false)
    }
}
