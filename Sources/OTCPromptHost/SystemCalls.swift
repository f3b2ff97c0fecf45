// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptCore
// Re-exported: `Errno` and `MonotonicInstant` lived here before the door had them, and every caller of this
// module's API names them.
@_exported import OTCPromptSystem

/// How a child process ended, from its `waitpid` status: the one place that status is decoded.
enum ProcessEnd: Equatable {
    case exited(Int32)
    case killed(by: Int32)

    init(waitStatus status: Int32) {
        let signal = status & 0x7F
        self = signal == 0 ? .exited((status >> 8) & 0xFF) : .killed(by: signal)
    }

    /// The shell's number for it: the exit status, or the signal's (`ExitStatus.signalled`).
    var shellStatus: Int32 {
        switch self {
        case .exited(let status): status
        case .killed(let signal): ExitStatus.signalled(signal)
        }
    }
}

/// The calls several files of this module and OTCPromptTerminal share, made through the door: a self-pipe and
/// complete writes.
package enum SystemCalls {
    /// POLLRDHUP, which Glibc declares only under _GNU_SOURCE (Linux's value): a socket's or a pipe's end of file.
    package static let pollReadHangUp: Int16 = 0x2000

    /// The door's wake-up pipe (close-on-exec, non-blocking), its failure told as this module's error.
    package static func wakeUpPipe() throws(HostError) -> (read: Int32, write: Int32) {
        do { return try SystemCall.wakeUpPipe() } catch { throw HostError(error) }
    }

    /// Writes as much of `bytes` as `descriptor` takes without waiting: stops at the end, at EAGAIN
    /// (a full non-blocking pipe) or at an error; returns how many bytes went out
    /// (errno says why it stopped early). The corresponding C function is `write`.
    package static func writeWithoutWaiting(_ bytes: [UInt8], to descriptor: Int32) -> Int {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { raw in
                SystemCall.retrying("write") { Glibc.write(descriptor, raw.baseAddress, raw.count) }
            }
            if count <= 0 { break }
            written += count
        }
        return written
    }

    /// Writes every byte to `descriptor`, looping on partial writes and EAGAIN (a non-blocking
    /// descriptor is waited for with poll); returns the error that stopped it, nil when all was written.
    /// The corresponding C function is `write`.
    package static func writeAll(_ bytes: some Collection<UInt8>, to descriptor: Int32) -> Errno? {
        Array(bytes).withUnsafeBytes { writeAll(raw: $0, to: descriptor) }
    }

    /// `writeAll` from memory the caller owns (a secret in locked memory), with no copy. On a non-blocking
    /// descriptor that is full, it waits for room, at most `patience` in all when given (then ETIMEDOUT).
    /// The corresponding C functions are `write` and `poll`.
    package static func writeAll(
        raw: UnsafeRawBufferPointer, to descriptor: Int32, patience: Duration? = nil
    ) -> Errno? {
        let deadline = patience.map { MonotonicInstant.now + $0 }
        var written = 0
        while written < raw.count {
            let result = SystemCall.retrying("write") {
                Glibc.write(descriptor, raw.baseAddress! + written, raw.count - written)
            }
            if result >= 0 {
                written += result
                continue
            }
            let failure = Errno.current
            guard failure == .resourceTemporarilyUnavailable || failure.rawValue == EWOULDBLOCK else { return failure }
            var timeout: Int32 = -1
            if let deadline {
                let left = MonotonicInstant.now.duration(to: deadline)
                guard left > .zero else { return .timedOut }
                timeout = left.pollTimeout
            }
            var waitFor = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            _ = SystemCall.retrying("poll") { poll(&waitFor, 1, timeout) }
        }
        return nil
    }
}
