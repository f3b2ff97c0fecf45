// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import SystemPackage

/// The `--speech-log` file: JSON Lines appended one whole line per write, so a crash loses nothing
/// already announced and concurrent writers never interleave inside a line.
public final class SpeechLogFile {
    private let descriptor: FileDescriptor

    /// Opens `path` for appending, readable by its owner only (0600) even when it already existed,
    /// and never through a symbolic link (one planted in /tmp would redirect the code).
    /// The corresponding C calls are `open(O_WRONLY|O_CREAT|O_APPEND|O_CLOEXEC|O_NOFOLLOW, 0600)`
    /// and `fchmod`.
    public init(path: String) throws(TerminalError) {
        do {
            descriptor = try FileDescriptor.open(
                FilePath(path), .writeOnly, options: [.create, .append, .closeOnExec, .noFollow],
                permissions: [.ownerReadWrite], retryOnInterrupt: true)
        } catch {
            throw .speechLog(path: path, error as? Errno ?? .ioError)
        }
        if fchmod(descriptor.rawValue, 0o600) != 0 {
            let error = SystemCalls.errno
            try? descriptor.close()
            throw .speechLog(path: path, error)
        }
    }

    deinit { try? descriptor.close() }

    /// Appends `line` and a newline in one write, immediately; false if the write failed.
    @discardableResult
    public func append(line: String) -> Bool {
        SystemCalls.writeAll((line + "\n").utf8, to: descriptor.rawValue) == nil
    }
}
