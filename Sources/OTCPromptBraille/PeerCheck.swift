import OTCPromptCore
import OTCPromptSystem

#if canImport(Glibc)
    import Glibc
#endif

/// After libbrlapi has connected: whether its socket reached the server the prompt judged. The address is checked
/// again (a libbrlapi that looks in other directories first would reach another socket), and on a local socket the
/// listener's uid (SO_PEERCRED, fixed when it called listen). No code has been written to it yet.
enum PeerCheck {
    /// Why the connection on `descriptor` is not the one judged at `address` for `owner`; nil when it is.
    /// The corresponding C functions are `getpeername` and `getsockopt(SO_PEERCRED)`.
    static func mismatch(descriptor: Int32, address: BrailleAddress, owner: UInt32?) -> String? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                SystemCall.retrying("getpeername") { getpeername(descriptor, address, &length) }
            }
        }
        guard named == 0 else { return "its address cannot be read (\(Errno.current))" }
        switch address {
        case .local:
            guard Int32(storage.ss_family) == AF_UNIX else { return "it is not a local socket" }
            let path = withUnsafeBytes(of: &storage) { raw in
                let bytes = raw.dropFirst(MemoryLayout<sa_family_t>.size).prefix { $0 != 0 }
                return String(decoding: bytes, as: UTF8.self)
            }
            if path != address.path { return "it is \(path), not \(address.path ?? "")" }
            guard let peer = peerUID(descriptor) else { return "its server's uid cannot be read" }
            if let owner, peer != owner { return "its server runs as uid \(peer), not \(owner)" }
            return nil
        case .tcp(_, let port):
            let family = Int32(storage.ss_family)
            guard family == AF_INET || family == AF_INET6 else { return "it is not a TCP socket" }
            // sin_port and sin6_port sit at the same place, in network order.
            let peerPort = withUnsafeBytes(of: &storage) { Int($0[2]) << 8 | Int($0[3]) }
            return peerPort == port ? nil : "its port is \(peerPort), not \(port)"
        }
    }

    /// The uid the process listening on the other end had when it called listen. The corresponding C call is
    /// `getsockopt(SO_PEERCRED)`.
    static func peerUID(_ descriptor: Int32) -> UInt32? {
        // struct ucred (pid, uid, gid), which Glibc hides behind _GNU_SOURCE.
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var size = socklen_t(MemoryLayout.size(ofValue: credentials))
        let result = SystemCall.retrying("getsockopt") {
            getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &size)
        }
        return result == 0 && size == 12 ? credentials.uid : nil
    }
}
