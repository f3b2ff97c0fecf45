// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// A unix-domain socket's address (`sockaddr_un`) for a path, with the length `bind`, `connect` and `sendto`
/// take: the one place that fits a path into `sun_path`.
public struct UnixSocketAddress: Sendable {
    /// The address, `AF_UNIX`, the path's bytes and a terminating NUL.
    public let address: sockaddr_un
    /// The family's bytes, the path's and its NUL: what the kernel is told the address holds.
    public let length: socklen_t

    /// The most bytes a path may have: `sun_path` less the terminating NUL (107 on Linux).
    public static let pathLimit = MemoryLayout<sockaddr_un>.size - MemoryLayout<sa_family_t>.size - 1

    /// The address of the socket at `path`; nil when the path does not fit `sun_path` with its NUL, or holds a NUL
    /// of its own, so that no caller reaches a socket whose path the kernel would have cut short (the callers say
    /// ENAMETOOLONG).
    public init?(path: String) {
        let bytes = Array(path.utf8)
        guard bytes.count <= Self.pathLimit, !bytes.contains(0) else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        self.address = address
        length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
    }

    /// Calls `body` with the address as the `sockaddr` pointer and the length the socket calls take.
    public func withSocketAddress<Result>(
        _ body: (UnsafePointer<sockaddr>, socklen_t) throws -> Result
    ) rethrows -> Result {
        try withUnsafePointer(to: address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, length) }
        }
    }
}
