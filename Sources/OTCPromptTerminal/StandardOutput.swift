// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import SystemPackage

/// Standard output, which receives the code and nothing else.
public enum StandardOutput {
    /// Writes `text` and "\n" to fd 1, retrying partial writes and EINTR.
    /// Throws `.standardOutput` for a closed stdout (EBADF) or a reader that went away (EPIPE,
    /// which needs SIGPIPE ignored: `SignalWatcher` does that). The corresponding C call is `write`.
    public static func write(_ text: String) throws(TerminalError) {
        try write(text, to: STDOUT_FILENO)
    }

    /// `write(_:)` on any descriptor, so tests need not replace the process's fd 1.
    static func write(_ text: String, to descriptor: Int32) throws(TerminalError) {
        if let failure = SystemCalls.writeAll((text + "\n").utf8, to: descriptor) {
            throw .standardOutput(failure)
        }
    }
}

/// Standard error, for the few messages that come before there is a terminal to write them on.
public enum StandardError {
    /// Writes `line` and "\n" to fd 2; best effort, since there is nowhere to report a failure.
    /// The corresponding C call is `write`.
    public static func writeLine(_ line: String) {
        _ = SystemCalls.writeAll((line + "\n").utf8, to: STDERR_FILENO)
    }
}
