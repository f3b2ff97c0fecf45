// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// The `--speech-log` file: JSON Lines appended one whole line per write, so a crash loses nothing
/// already announced and concurrent writers never interleave inside a line.
public final class SpeechLogFile {
    private let descriptor: Int32
    /// Why the last append failed (a full disk, `/dev/full`), in words; nil while every line was written.
    public private(set) var failure: String?

    /// How long one line may wait for a pipe's reader to make room: a reader that stopped reading must not
    /// hold the prompt (issue 14: no wait without a deadline). Past it, logging stops with a notice.
    static let patience: Duration = .milliseconds(250)
    /// A pipe or socket, written without blocking and at most `patience` per line.
    private let waitsForAReader: Bool

    /// Opens `path` for appending, by `OutputFile`'s rules: a new file 0600, an existing one left
    /// as it is, no symbolic link followed, no wait on a FIFO without a reader.
    /// The corresponding C calls are `fstat` and `fcntl` (a pipe or socket kept non-blocking).
    public init(path: String) throws(TerminalError) {
        descriptor = try OutputFile.open(path: path, option: "--speech-log", appending: true).descriptor
        var status = stat()
        let kind = fstat(descriptor, &status) == 0 ? status.st_mode & S_IFMT : 0
        waitsForAReader = kind == S_IFIFO || kind == S_IFSOCK
        if waitsForAReader { _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK) }
    }

    deinit { _ = Glibc.close(descriptor) }

    /// Appends `line` and a newline in one write, immediately; false if the write failed.
    @discardableResult
    public func append(line: String) -> Bool {
        let bytes = Array((line + "\n").utf8)
        let error = bytes.withUnsafeBytes {
            SystemCalls.writeAll(raw: $0, to: descriptor, patience: waitsForAReader ? Self.patience : nil)
        }
        guard let error else { return true }
        failure = String(describing: error)
        return false
    }
}
