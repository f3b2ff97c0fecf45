import Foundation
import Glibc
import Testing

@testable import OTCPromptHost

/// The directories above a watched one, on real directories of the test's own: one that someone else could
/// change lets them swap the watched directory whole, so it is refused; a sticky one of root's, as `/tmp`, is not.
@Suite struct AskDirectoryAncestorTests {
    /// A new directory `parent/ask` (0700, the test's), its parent given `mode` and `owner` (chown needs root).
    private func directories(parentMode: mode_t = 0o700, parentOwner: uid_t? = nil) throws -> (
        parent: String, path: String
    ) {
        var template = Array("/tmp/otc-ancestor-XXXXXX".utf8CString)
        let made = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) })
        let parent = String(cString: made)
        let path = parent + "/ask"
        try #require(mkdir(path, 0o700) == 0)
        try #require(chmod(parent, parentMode) == 0)
        if let parentOwner { try #require(chown(parent, parentOwner, gid_t(parentOwner)) == 0) }
        return (parent, path)
    }

    private func remove(_ made: (parent: String, path: String)) {
        rmdir(made.path)
        rmdir(made.parent)
    }

    @Test func aDirectoryUnderPlainDirectoriesOfRootAndTheOwnerIsAccepted() throws {
        let made = try directories()
        defer { remove(made) }
        #expect(throws: Never.self) { try AskDirectory(path: made.path, owner: getuid()) }
    }

    @Test func aGroupWritableDirectoryAboveIsRefused() throws {
        let made = try directories(parentMode: 0o770)
        defer { remove(made) }
        #expect(throws: AskDirectory.Refusal.ancestorWritableByOthers(made.parent)) {
            try AskDirectory(path: made.path, owner: getuid())
        }
    }

    @Test func aWorldWritableDirectoryAboveThatIsNotStickyIsRefused() throws {
        let made = try directories(parentMode: 0o777)
        defer { remove(made) }
        #expect(throws: AskDirectory.Refusal.ancestorWritableByOthers(made.parent)) {
            try AskDirectory(path: made.path, owner: getuid())
        }
    }

    @Test(.enabled(if: getuid() == 0, "a sticky directory of root's needs root"))
    func aStickyDirectoryOfRootsAboveIsAccepted() throws {
        let made = try directories(parentMode: 0o1777)
        defer { remove(made) }
        #expect(throws: Never.self) { try AskDirectory(path: made.path, owner: getuid()) }
    }

    @Test(.enabled(if: getuid() == 0, "chown needs root"))
    func aDirectoryAboveOfAnotherUserIsRefused() throws {
        let made = try directories(parentOwner: 65534)
        defer { remove(made) }
        #expect(throws: AskDirectory.Refusal.ancestorOfAnotherUser(made.parent, 65534)) {
            try AskDirectory(path: made.path, owner: 0)
        }
    }

    @Test(.enabled(if: getuid() == 0, "chown needs root"))
    func aStickyDirectoryAboveOfAnotherUserIsRefused() throws {
        let made = try directories(parentMode: 0o1777, parentOwner: 65534)
        defer { remove(made) }
        #expect(throws: AskDirectory.Refusal.ancestorOfAnotherUser(made.parent, 65534)) {
            try AskDirectory(path: made.path, owner: 0)
        }
    }

    @Test(.enabled(if: getuid() == 0, "chown needs root"))
    func aDirectoryAboveOfTheOwnerIsAccepted() throws {
        let made = try directories(parentOwner: 65534)
        defer { remove(made) }
        try #require(chown(made.path, 65534, 65534) == 0)
        #expect(throws: Never.self) { try AskDirectory(path: made.path, owner: 65534) }
    }

    @Test func aSymbolicLinkAboveIsRefusedNotFollowed() throws {
        let made = try directories()
        defer { remove(made) }
        let link = made.parent + "-link"
        try #require(symlink(made.parent, link) == 0)
        defer { unlink(link) }
        #expect(throws: AskDirectory.Refusal.symbolicLinkAbove(link)) {
            try AskDirectory(path: link + "/ask", owner: getuid())
        }
    }

    @Test(arguments: ["relative/ask", "/tmp/./ask", "/tmp/x/../ask"])
    func aPathThatNamesNoFixedChainIsRefused(path: String) throws {
        #expect(throws: AskDirectory.Refusal.notAPlainPath(path)) { try AskDirectory(path: path, owner: getuid()) }
    }

    @Test func aMissingDirectoryAboveIsSaidMissing() throws {
        let path = "/tmp/otc-ancestor-missing-\(UUID().uuidString)/ask"
        #expect(throws: AskDirectory.Refusal.missing(path)) { try AskDirectory(path: path, owner: getuid()) }
    }

    @Test func theRefusalSaysWhichDirectoryAboveAndWhy() {
        #expect(
            AskDirectory.Refusal.ancestorWritableByOthers("/srv/shared").description
                == "/srv/shared above it may be written by other users, who could put another directory in its place")
    }
}
