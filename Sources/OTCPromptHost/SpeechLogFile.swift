// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptSystem

/// The `--speech-log` file: JSON Lines appended one whole line per write, so a crash loses nothing
/// already announced and concurrent writers never interleave inside a line.
public final class SpeechLogFile {
    /// A pipe or socket is written without blocking, each line waiting at most the file's `patience` for room:
    /// a reader that stopped reading must not hold the prompt (hostile input and stuck components). Past it, logging stops with a notice.
    private let file: OutputFile
    /// Why the last append failed (a full disk, `/dev/full`), in words; nil while every line was written.
    public private(set) var failure: String?

    /// Opens `path` for appending, by `OutputFile`'s rules: a new file 0600, an existing one left
    /// as it is, no symbolic link followed, no wait on a FIFO without a reader.
    public init(path: String) throws(HostError) {
        file = try OutputFile.open(path: path, option: "--speech-log", appending: true)
    }

    deinit { _ = Glibc.close(file.descriptor) }

    /// Appends `line` and a newline in one write, immediately; false if the write failed.
    @discardableResult
    public func append(line: String) -> Bool {
        let bytes = Array((line + "\n").utf8)
        guard let error = bytes.withUnsafeBytes(file.write) else { return true }
        failure = String(describing: error)
        return false
    }
}
