// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// Waits for what no descriptor signals (a task gone from /proc, a child reaped with WNOHANG, a pipe's other end let
/// go): the one loop that asks again after a short pause until a deadline.
public enum Polling {
    /// Asks `done` now, then after each pause of `every`, until it answers true or `within` has passed since the call;
    /// whether it answered true. It asks once more after the last pause, so the answer at the deadline counts.
    /// The corresponding C function is `nanosleep`.
    public static func until(within: Duration, every pause: Duration, _ done: () -> Bool) -> Bool {
        let deadline = MonotonicInstant.now.advanced(by: within)
        while !done() {
            guard MonotonicInstant.now < deadline else { return false }
            var time = pause.timespec
            nanosleep(&time, nil)
        }
        return true
    }
}
