// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import SystemPackage

/// The calls every file below shares: errno as a value, EINTR retries and complete writes.
enum SystemCalls {
    /// The calling thread's errno, typed.
    static var errno: Errno { Errno(rawValue: Glibc.errno) }

    /// Runs `call` until it stops failing with EINTR; returns its result (or -1 with errno set).
    static func retryingOnInterrupt(_ call: () -> Int32) -> Int32 {
        while true {
            let result = call()
            if result == -1 && Glibc.errno == EINTR { continue }
            return result
        }
    }

    /// Writes as much of `bytes` as `descriptor` takes without waiting: stops at the end, at EAGAIN
    /// (a full non-blocking pipe) or at an error, retrying EINTR; returns how many bytes went out
    /// (errno says why it stopped early). The corresponding C function is `write`.
    static func writeWithoutWaiting(_ bytes: [UInt8], to descriptor: Int32) -> Int {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { raw in
                retryingOnInterrupt { Int32(truncatingIfNeeded: Glibc.write(descriptor, raw.baseAddress, raw.count)) }
            }
            if count <= 0 { break }
            written += Int(count)
        }
        return written
    }

    /// Writes every byte to `descriptor`, looping on partial writes, EINTR and EAGAIN (a non-blocking
    /// descriptor is waited for with poll); returns the error that stopped it, nil when all was written.
    /// The corresponding C function is `write`.
    static func writeAll(_ bytes: some Collection<UInt8>, to descriptor: Int32) -> Errno? {
        let buffer = Array(bytes)
        var written = 0
        return buffer.withUnsafeBytes { raw -> Errno? in
            while written < raw.count {
                let result = Glibc.write(descriptor, raw.baseAddress! + written, raw.count - written)
                if result >= 0 {
                    written += result
                    continue
                }
                let failure = Glibc.errno
                if failure == EINTR { continue }
                if failure == EAGAIN || failure == EWOULDBLOCK {
                    var waitFor = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&waitFor, 1, -1)
                    continue
                }
                return Errno(rawValue: failure)
            }
            return nil
        }
    }
}
