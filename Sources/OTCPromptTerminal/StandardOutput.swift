// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptCore
import OTCPromptHost
import OTCPromptSystem
import Synchronization

/// Standard output, which receives the code and nothing else.
public enum StandardOutput {
    /// Writes `text` and "\n" (no "\n" when `endingLine` is false) to fd 1, retrying partial writes and EINTR.
    /// Throws `.standardOutput` for a closed stdout (EBADF) or a reader that went away (EPIPE,
    /// which needs SIGPIPE ignored: `SignalWatcher` does that). The corresponding C call is `write`.
    public static func write(
        _ text: String, encoding: TerminalEncoding = .utf8, endingLine: Bool = true
    ) throws(HostError) {
        try write(text, to: STDOUT_FILENO, encoding: encoding, endingLine: endingLine)
    }

    /// Writes `secret` in `encoding` and "\n" (none when `endingLine` is false) to fd 1 from locked memory
    /// that is wiped at once, then wipes `secret` too: its bytes never pass through a `String` or an unwiped
    /// array. Throws as `write(_:encoding:)`. The corresponding C call is `write`.
    public static func write(
        _ secret: SecretBytes, encoding: TerminalEncoding, endingLine: Bool = true
    ) throws(HostError) {
        try write(secret, to: STDOUT_FILENO, encoding: encoding, endingLine: endingLine)
    }

    /// Why fd 1 cannot take the answer, checked before anything is asked: closed (or the read-only /dev/null
    /// `ProcessHardening.reserveStandardDescriptors` put in its place: EBADF), or a pipe or socket whose reader has
    /// gone (EPIPE). nil when it can. The corresponding C calls are `fcntl` and `poll`.
    public static var unusable: Errno? {
        let flags = fcntl(STDOUT_FILENO, F_GETFL)
        guard flags >= 0, flags & O_ACCMODE != O_RDONLY else { return .badFileDescriptor }
        var descriptor = pollfd(fd: STDOUT_FILENO, events: Int16(POLLOUT), revents: 0)
        guard SystemCall.retrying("poll", { poll(&descriptor, 1, 0) }) >= 0 else { return nil }
        if descriptor.revents & Int16(POLLNVAL) != 0 { return .badFileDescriptor }
        if descriptor.revents & Int16(POLLERR | POLLHUP) != 0 { return .brokenPipe }
        return nil
    }

    /// Whether fd 1 is a terminal: a person reading, not a caller capturing the answer.
    /// The corresponding C function is `isatty`.
    public static var isTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// `write(_:encoding:)` of a secret on any descriptor.
    static func write(
        _ secret: SecretBytes, to descriptor: Int32, encoding: TerminalEncoding, endingLine: Bool = true
    ) throws(HostError) {
        defer { secret.wipe() }
        let output = LockedBytes(count: secret.encodedCapacity)
        let count = secret.write(as: encoding, into: output.bytes, endingLine: endingLine)
        if let failure = SystemCalls.writeAll(
            raw: UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: output.bytes[..<count])), to: descriptor)
        {
            throw .standardOutput(failure)
        }
    }

    /// `write(_:)` on any descriptor, so tests need not replace the process's fd 1.
    static func write(
        _ text: String, to descriptor: Int32, encoding: TerminalEncoding = .utf8, endingLine: Bool = true
    ) throws(HostError) {
        if let failure = SystemCalls.writeAll(encoding.encode(endingLine ? text + "\n" : text), to: descriptor) {
            throw .standardOutput(failure)
        }
    }
}

/// Standard error, for the few messages that come before there is a terminal to write them on.
public enum StandardError {
    /// Writes `message` and "\n" to fd 2, each line made visible (`UntrustedText`); best effort, since
    /// there is nowhere to report a failure. The corresponding C call is `write`.
    public static func writeLine(_ message: String) {
        writeLine(message, to: descriptor)
    }

    /// Where otc-prompt's own messages go: fd 2 as the process found it (`separateFromLibraries`).
    public static var descriptor: Int32 { ownDescriptor.load(ordering: .relaxed) }
    private static let ownDescriptor = Atomic<Int32>(STDERR_FILENO)

    /// When fd 2 is a terminal, keeps it for otc-prompt's own messages (a copy, closed on exec) and points fd 2 at
    /// /dev/null. libpulse, ALSA and espeak-ng write to fd 2 from any thread, at any time ("socket(): Too many open
    /// files", "shared memfd open() failed"): on the prompt's screen their words break the field's line, and a
    /// screen reader reads them aloud. A program we start inherits /dev/null too, unless given a stderr of its own
    /// (`--check`'s is a pipe). Call it first thing; when a descriptor cannot be had, nothing changes.
    /// The corresponding C functions are `isatty`, `fcntl(F_DUPFD_CLOEXEC)`, `open` and `dup2`.
    public static func separateFromLibraries() {
        guard isatty(STDERR_FILENO) == 1 else { return }
        let kept = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3)
        guard kept >= 0 else { return }
        let null = SystemCall.retrying("open") { open("/dev/null", O_WRONLY | O_CLOEXEC | O_NOCTTY) }
        guard null >= 0, SystemCall.retrying("dup2", { dup2(null, STDERR_FILENO) }) >= 0 else {
            if null >= 0 { _ = close(null) }
            _ = close(kept)
            return
        }
        _ = close(null)
        ownDescriptor.store(kept, ordering: .relaxed)
    }

    /// Puts the terminal back on fd 2 before this process executes a new image of itself (the agent's renewal),
    /// whose own start separates it again; `separateAgain` undoes it when the exec failed.
    /// The corresponding C function is `dup2`.
    public static func handBackForExec() {
        let own = descriptor
        if own != STDERR_FILENO { _ = SystemCall.retrying("dup2") { dup2(own, STDERR_FILENO) } }
    }

    /// fd 2 on /dev/null again after `handBackForExec`, when the exec failed. The corresponding C calls are `open`
    /// and `dup2`.
    public static func separateAgain() {
        guard descriptor != STDERR_FILENO else { return }
        let null = SystemCall.retrying("open") { open("/dev/null", O_WRONLY | O_CLOEXEC | O_NOCTTY) }
        guard null >= 0 else { return }
        _ = SystemCall.retrying("dup2") { dup2(null, STDERR_FILENO) }
        _ = close(null)
    }

    /// Whether fd 2 is the terminal the prompt is on, where a message is already shown: the same device, or both
    /// the controlling terminal (`/dev/tty` is a device of its own to `fstat`). The corresponding C calls are
    /// `fstat` and `tcgetpgrp`.
    public static func isSameTerminal(as terminal: Terminal?) -> Bool {
        guard let terminal else { return false }
        var error = stat()
        var prompt = stat()
        guard fstat(descriptor, &error) == 0, fstat(terminal.output, &prompt) == 0 else { return false }
        guard (error.st_mode & S_IFMT) == S_IFCHR else { return false }
        return error.st_rdev == prompt.st_rdev || (tcgetpgrp(descriptor) >= 0 && tcgetpgrp(terminal.output) >= 0)
    }

    static func writeLine(_ message: String, to descriptor: Int32) {
        let visible = UntrustedText.visibleLines(message).joined(separator: "\n")
        _ = SystemCalls.writeAll((visible + "\n").utf8, to: descriptor)
    }
}

/// Standard input, for `--stdin`: a code handed over by a script instead of typed.
public enum StandardInput {
    /// Reads up to the first line break or end of input, keeping at most `limit` bytes (the rest of
    /// a longer line is not read), in `encoding` (the locale's). Nil when the line is not valid UTF-8:
    /// a secret is never changed silently, so it is refused rather than repaired with U+FFFD.
    /// The corresponding C call is `read`.
    public static func readLine(limit: Int = 65_536, encoding: TerminalEncoding = .utf8) throws(HostError)
        -> String?
    {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            let count = buffer.withUnsafeMutableBytes { raw in
                SystemCall.retrying("read") {
                    Int32(truncatingIfNeeded: read(STDIN_FILENO, raw.baseAddress, raw.count))
                }
            }
            if count < 0 { throw .system(Errno.current, call: "read") }
            if count == 0 { break }
            if let newline = buffer[..<Int(count)].firstIndex(of: 0x0A) {
                bytes += buffer[..<newline]
                break
            }
            bytes += buffer[..<Int(count)]
        }
        return String(validating: encoding.decode(Array(bytes.prefix(limit))), as: UTF8.self)
    }
}
