// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// The `--speech-log` file: JSON Lines appended one whole line per write, so a crash loses nothing
/// already announced and concurrent writers never interleave inside a line.
public final class SpeechLogFile {
    private let descriptor: Int32
    /// Why the last append failed (a full disk, `/dev/full`), in words; nil while every line was written.
    public private(set) var failure: String?

    /// Opens `path` for appending, by `OutputFile`'s rules: a new file 0600, an existing one left
    /// as it is, no symbolic link followed, no wait on a FIFO without a reader.
    public init(path: String) throws(TerminalError) {
        descriptor = try OutputFile.open(path: path, option: "--speech-log", appending: true).descriptor
    }

    deinit { _ = Glibc.close(descriptor) }

    /// Appends `line` and a newline in one write, immediately; false if the write failed.
    @discardableResult
    public func append(line: String) -> Bool {
        guard let error = SystemCalls.writeAll((line + "\n").utf8, to: descriptor) else { return true }
        failure = String(describing: error)
        return false
    }
}
