// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// A file the user named for output (`--speech-log`, `--audio-file`), opened without ever changing
/// anything about it but its contents.
///
/// A new file is created 0600 (it holds what is spoken, so the code unless --mask). An existing
/// file keeps its mode and owner. A symbolic link is refused (one planted in /tmp would redirect
/// the code). A device or FIFO (/dev/null, a pipe to a reader) is written as it is, never truncated.
/// The open never waits: a FIFO with no reader is an error at once, not a hang before raw mode.
public struct OutputFile: Sendable {
    public let descriptor: Int32
    /// A regular file, so it may be truncated and rewritten (a WAV header patched at the end).
    public let isRegularFile: Bool

    /// Opens `path` for writing; `appending` for a log, else a regular file is emptied first.
    /// - Parameter option: the option that named it, for the error message ("--speech-log").
    /// The corresponding C calls are `open(O_WRONLY|O_CREAT|O_NOFOLLOW|O_NONBLOCK|O_NOCTTY|O_CLOEXEC, 0600)`,
    /// `fstat`, `ftruncate` (regular files only) and `fcntl` (blocking writes again).
    public static func open(path: String, option: String, appending: Bool) throws(TerminalError) -> OutputFile {
        let flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (appending ? O_APPEND : 0)
        let descriptor = SystemCalls.retryingOnInterrupt { Glibc.open(path, flags, 0o600) }
        guard descriptor >= 0 else { throw .outputFile(path: path, option: option, SystemCalls.errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure(closing: descriptor, path, option) }
        let isRegularFile = status.st_mode & S_IFMT == S_IFREG
        if isRegularFile && !appending {
            guard ftruncate(descriptor, 0) == 0 else { throw failure(closing: descriptor, path, option) }
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return OutputFile(descriptor: descriptor, isRegularFile: isRegularFile)
    }

    private static func failure(closing descriptor: Int32, _ path: String, _ option: String) -> TerminalError {
        let error = SystemCalls.errno
        _ = Glibc.close(descriptor)
        return .outputFile(path: path, option: option, error)
    }
}
