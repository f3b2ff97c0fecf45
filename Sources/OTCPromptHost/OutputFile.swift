// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptSystem

/// A file the user named for output (`--speech-log`, `--audio-file`), opened without ever changing
/// anything about it but its contents.
///
/// A new file is created 0600 (it holds what is spoken, so the code unless --mask). An existing
/// file keeps its mode, and must be the user's own (`FileTrust.outputFile`): one another user planted, even one
/// the user may write (a 0666 file in a shared directory), would hand them every word; it is refused before a byte
/// is written or anything truncated. A symbolic link is refused (one planted in /tmp would redirect
/// the code). A device or FIFO (/dev/null, a pipe to a reader) is written as it is, never truncated.
/// The open never waits: a FIFO with no reader is an error at once, not a hang before raw mode. Nor does a
/// write wait long on a pipe or socket whose reader stopped reading (no wait without a deadline).
public struct OutputFile: Sendable {
    public let descriptor: Int32
    /// A regular file, so it may be truncated and rewritten (a WAV header patched at the end).
    public let isRegularFile: Bool
    /// How long one write may wait for a pipe's or socket's reader to make room, so that a reader that stops
    /// reading cannot hold the prompt; nil for a file or device, whose writes block.
    public let patience: Duration?

    /// A pipe's or socket's `patience`. A pipe holds 64 KiB (1.5 s of audio, hundreds of log lines), so a
    /// reader that keeps up never makes a write wait this long.
    static let readerPatience: Duration = .milliseconds(250)

    /// Opens `path` for writing; `appending` for a log, else a regular file is emptied first.
    /// - Parameter option: the option that named it, for the error message ("--speech-log").
    /// The corresponding C calls are `open(O_WRONLY|O_CREAT|O_NOFOLLOW|O_NONBLOCK|O_NOCTTY|O_CLOEXEC, 0600)`,
    /// `fstat`, `ftruncate` (regular files only) and `fcntl` (blocking writes again, but to a pipe or socket).
    public static func open(path: String, option: String, appending: Bool) throws(HostError) -> OutputFile {
        let flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (appending ? O_APPEND : 0)
        let descriptor = SystemCall.retrying("open") { Glibc.open(path, flags, 0o600) }
        guard descriptor >= 0 else { throw .outputFile(path: path, option: option, Errno.current) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure(closing: descriptor, path, option) }
        // Checked on what was opened, before the truncation below or any write.
        do { try FileTrust.outputFile().check(FileTrust.Status(status)) } catch {
            _ = Glibc.close(descriptor)
            throw .untrustedFile(path: path, option: option, error)
        }
        if status.st_mode & S_IFMT == S_IFREG && !appending {
            guard ftruncate(descriptor, 0) == 0 else { throw failure(closing: descriptor, path, option) }
        }
        return OutputFile(descriptor: descriptor, type: status.st_mode & S_IFMT)
    }

    /// `descriptor`, open for writing, of file type `type` (`S_IFMT` bits): non-blocking when it is a pipe or
    /// socket, blocking otherwise. The corresponding C function is `fcntl`.
    init(descriptor: Int32, type: mode_t) {
        self.descriptor = descriptor
        isRegularFile = type == S_IFREG
        let waitsForAReader = type == S_IFIFO || type == S_IFSOCK
        patience = waitsForAReader ? Self.readerPatience : nil
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, waitsForAReader ? flags | O_NONBLOCK : flags & ~O_NONBLOCK)
    }

    /// Writes every byte of `bytes`, waiting at most `patience` for room when it has one (then ETIMEDOUT).
    /// - Returns: the error that stopped it; nil when all was written.
    /// The corresponding C functions are `write` and `poll`.
    public func write(_ bytes: UnsafeRawBufferPointer) -> Errno? {
        SystemCalls.writeAll(raw: bytes, to: descriptor, patience: patience)
    }

    private static func failure(closing descriptor: Int32, _ path: String, _ option: String) -> HostError {
        let error = Errno.current
        _ = Glibc.close(descriptor)
        return .outputFile(path: path, option: option, error)
    }
}
