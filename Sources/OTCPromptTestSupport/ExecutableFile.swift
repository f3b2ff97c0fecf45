// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// Writes a script (or any file a test will run) through a descriptor closed on exec, and gives it `mode`.
///
/// Tests start programs while other tests write theirs. Foundation's `write(toFile:)` opens without
/// O_CLOEXEC: a program spawned meanwhile keeps the descriptor open for writing through its exec, and every
/// exec of the file fails with ETXTBSY ("Text file busy") for as long as that program runs.
public func writeExecutable(_ text: String, to path: String, mode: mode_t = 0o700) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode)
    guard descriptor >= 0 else { throw ExecutableFileError(path: path, errno: errno) }
    let bytes = Array(text.utf8)
    let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    // The umask may have taken bits away.
    let moded = fchmod(descriptor, mode) == 0
    let error = errno
    guard close(descriptor) == 0, written == bytes.count, moded else {
        throw ExecutableFileError(path: path, errno: error)
    }
}

/// `writeExecutable` could not create, write or close `path`.
public struct ExecutableFileError: Error, CustomStringConvertible {
    public let path: String
    public let errno: Int32
    public var description: String { "writing \(path): errno \(errno)" }
}
