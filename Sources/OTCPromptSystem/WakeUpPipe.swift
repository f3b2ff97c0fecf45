// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

extension SystemCall {
    /// A pipe whose ends are close-on-exec and non-blocking: a self-pipe that wakes a `poll` (signals, a background
    /// task's end, the braille thread's mail) and never blocks the one who writes it. The one place such a pipe is
    /// made. The corresponding C calls are `pipe` and `fcntl` (Glibc's module map does not offer `pipe2`).
    public static func wakeUpPipe() throws(SystemCallError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        _ = try call("pipe") { pipe(&ends) }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        return (ends[0], ends[1])
    }
}
