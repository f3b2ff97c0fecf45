// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc
import Testing

@testable import OTCPromptHost

/// Whose a server's socket is (`LocalSocket.foreignOwner`), on real sockets and files of the test's own.
@Suite struct LocalSocketTests {
    private func scratch() throws -> String {
        var template = Array("/tmp/otc-socket-XXXXXX".utf8CString)
        let made = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) })
        return String(cString: made)
    }

    /// A listening socket bound at `path`; its descriptor, to close.
    private func listen(at path: String) throws -> Int32 {
        let address = try #require(UnixSocketAddress(path: path))
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(descriptor >= 0)
        try #require(address.withSocketAddress { bind(descriptor, $0, $1) } == 0)
        try #require(Glibc.listen(descriptor, 1) == 0)
        return descriptor
    }

    @Test func theUsersOwnSocketIsTheirsAndOneNotThereYetIsNoRefusal() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(LocalSocket.foreignOwner(of: directory + "/server", uid: getuid()) == nil)
        let listener = try listen(at: directory + "/server")
        defer { close(listener) }
        #expect(LocalSocket.foreignOwner(of: directory + "/server", uid: getuid()) == nil)
        let connected = try LocalSocket.connect(path: directory + "/server", timeout: .seconds(5))
        #expect(connected.peerUID == getuid())
    }

    @Test func aFileOrALinkToASocketIsNotASocket() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let listener = try listen(at: directory + "/server")
        defer { close(listener) }
        try #require(symlink(directory + "/server", directory + "/link") == 0)
        #expect(LocalSocket.foreignOwner(of: directory + "/link", uid: getuid()) == directory + "/link is not a socket")
        try #require(FileManager.default.createFile(atPath: directory + "/file", contents: Data()))
        #expect(LocalSocket.foreignOwner(of: directory + "/file", uid: getuid()) == directory + "/file is not a socket")
    }

    @Test func anotherUsersSocketOrDirectoryIsNamed() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let listener = try listen(at: directory + "/server")
        defer { close(listener) }
        let other = getuid() + 1
        let why = LocalSocket.foreignOwner(of: directory + "/server", uid: other)
        if getuid() == 0 {
            // A directory of root's is as safe as the user's own: only the socket is another's.
            #expect(why == "the socket belongs to uid 0, not to you (uid 1)")
        } else {
            #expect(why == "its directory \(directory) belongs to uid \(getuid()), not to you (uid \(other))")
        }
        #expect(LocalSocket.foreignOwner(of: "/dev/log-not-there", uid: other) == nil, "a directory of root's is safe")
    }

    @Test(.enabled(if: getuid() == 0, "chown to another user needs root"))
    func aSocketChownedToAnotherUserInADirectoryOfRootsIsRefused() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let listener = try listen(at: directory + "/server")
        defer { close(listener) }
        try #require(chown(directory + "/server", 65534, 65534) == 0)
        #expect(
            LocalSocket.foreignOwner(of: directory + "/server", uid: 0)
                == "the socket belongs to uid 65534, not to you (uid 0)")
    }

    @Test func aSocketWhoseDirectoryOthersMayWriteInOrIsALinkIsRefused() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let real = directory + "/real"
        try #require(mkdir(real, 0o700) == 0 && symlink(real, directory + "/link") == 0)
        let listener = try listen(at: real + "/server")
        defer { close(listener) }
        #expect(LocalSocket.foreignOwner(of: real + "/server", uid: getuid()) == nil)
        try #require(chmod(real, 0o770) == 0)
        #expect(
            LocalSocket.foreignOwner(of: real + "/server", uid: getuid())
                == "its directory \(real): other users may write in it")
        try #require(chmod(real, 0o700) == 0)
        #expect(
            LocalSocket.foreignOwner(of: directory + "/link/server", uid: getuid())
                == "its directory \(directory)/link: it is a symbolic link")
    }

    @Test func aSocketOfTheUsersInRootsStickyDirectoryIsTheirs() throws {
        let path = "/tmp/otc-socket-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let listener = try listen(at: path)
        defer {
            close(listener)
            unlink(path)
        }
        #expect(LocalSocket.foreignOwner(of: path, uid: getuid()) == nil)
    }
}
