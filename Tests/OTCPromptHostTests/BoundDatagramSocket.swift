import Glibc
import Testing

@testable import OTCPromptHost

/// A datagram socket bound at a new path, in a 0700 directory of the test's own: what a querier or a log daemon
/// listens on.
struct BoundDatagramSocket {
    let descriptor: Int32
    let path: String

    init(named name: String) throws {
        var template = Array("/tmp/otc-dgram-XXXXXX".utf8CString)
        let made = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) })
        path = String(cString: made) + "/" + name
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(descriptor >= 0)
        let address = try #require(UnixSocketAddress(path: path))
        let fd = descriptor
        try #require(address.withSocketAddress { bind(fd, $0, $1) } == 0)
    }

    /// Closes it and removes the socket and its directory.
    func remove() {
        close(descriptor)
        unlink(path)
        if let slash = path.lastIndex(of: "/") { rmdir(String(path[..<slash])) }
    }
}
