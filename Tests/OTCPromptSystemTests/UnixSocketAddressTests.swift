// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import Testing

@testable import OTCPromptSystem

/// The one `sockaddr_un` builder: a path that fits is copied with its NUL, one that would be cut short is refused.
@Suite struct UnixSocketAddressTests {
    private static let familySize = MemoryLayout<sa_family_t>.size

    private func pathBytes(of address: UnixSocketAddress) -> [UInt8] {
        var copy = address.address
        return withUnsafeBytes(of: &copy.sun_path) { Array($0) }
    }

    @Test func aPathThatFitsIsCopiedWithItsNULAndTheFamilyIsUnix() throws {
        let address = try #require(UnixSocketAddress(path: "/run/user/1000/speech-dispatcher/speechd.sock"))
        let expected = Array("/run/user/1000/speech-dispatcher/speechd.sock".utf8)
        #expect(address.address.sun_family == sa_family_t(AF_UNIX))
        #expect(Array(pathBytes(of: address).prefix(expected.count + 1)) == expected + [0])
        #expect(address.length == socklen_t(Self.familySize + expected.count + 1))
    }

    @Test func theLimitIsSunPathLessItsNUL() {
        let probe = sockaddr_un()
        #expect(UnixSocketAddress.pathLimit == MemoryLayout.size(ofValue: probe.sun_path) - 1)
        #expect(UnixSocketAddress.pathLimit == 107, "Linux's sun_path holds 108 bytes")
    }

    @Test func aPathOfExactlyTheLimitFitsAndFillsTheAddress() throws {
        let path = "/" + String(repeating: "a", count: UnixSocketAddress.pathLimit - 1)
        let address = try #require(UnixSocketAddress(path: path))
        #expect(pathBytes(of: address) == Array(path.utf8) + [0])
        #expect(Int(address.length) == MemoryLayout<sockaddr_un>.size)
    }

    @Test func aPathOneByteTooLongIsRefused() {
        let path = "/" + String(repeating: "a", count: UnixSocketAddress.pathLimit)
        #expect(UnixSocketAddress(path: path) == nil)
    }

    @Test func aPathWithANULOfItsOwnIsRefused() {
        #expect(UnixSocketAddress(path: "/run/user/1000/sck\u{0}.other") == nil)
    }

    @Test func theLimitCountsBytesNotCharacters() {
        // 54 characters of two bytes each: 108 bytes, one more than fits.
        #expect(UnixSocketAddress(path: "/" + String(repeating: "é", count: 53)) != nil)
        #expect(UnixSocketAddress(path: "/" + String(repeating: "é", count: 54)) == nil)
    }

    @Test func theAddressReachesARealBindAndConnect() throws {
        var template = Array("/tmp/otc-address-XXXXXX".utf8CString)
        let directory = try #require(mkdtemp(&template).map { String(cString: $0) })
        defer { rmdir(directory) }
        let path = directory + "/s"
        let address = try #require(UnixSocketAddress(path: path))
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let client = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer {
            close(listener)
            close(client)
            unlink(path)
        }
        #expect(address.withSocketAddress { bind(listener, $0, $1) } == 0)
        #expect(listen(listener, 1) == 0)
        #expect(address.withSocketAddress { connect(client, $0, $1) } == 0)
        var bound = sockaddr_un()
        var size = socklen_t(MemoryLayout<sockaddr_un>.size)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &size) }
        }
        #expect(size == address.length, "the kernel reports the path it bound, no byte more or less")
    }
}
