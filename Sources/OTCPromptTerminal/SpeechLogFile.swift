// SPDX-License-Identifier: GPL-3.0-or-later
import SystemPackage

/// The `--speech-log` file: JSON Lines appended one whole line per write, so a crash loses nothing
/// already announced and concurrent writers never interleave inside a line.
public final class SpeechLogFile {
    private let descriptor: FileDescriptor

    /// Opens `path` for appending, creating it readable by its owner only (0600).
    /// The corresponding C call is `open(O_WRONLY|O_CREAT|O_APPEND|O_CLOEXEC, 0600)`.
    public init(path: String) throws(TerminalError) {
        do {
            descriptor = try FileDescriptor.open(
                FilePath(path), .writeOnly, options: [.create, .append, .closeOnExec],
                permissions: [.ownerReadWrite], retryOnInterrupt: true)
        } catch {
            throw .speechLog(path: path, error as? Errno ?? .ioError)
        }
    }

    deinit { try? descriptor.close() }

    /// Appends `line` and a newline in one write, immediately; false if the write failed.
    @discardableResult
    public func append(line: String) -> Bool {
        SystemCalls.writeAll((line + "\n").utf8, to: descriptor.rawValue) == nil
    }
}
