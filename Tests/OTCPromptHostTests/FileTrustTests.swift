// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc
import Testing

@testable import OTCPromptHost

/// The one trust check: its rules on `stat`'s values, then on real files of the test's own.
@Suite struct FileTrustTests {
    typealias Status = FileTrust.Status
    static let user: uid_t = 1000
    static let other: uid_t = 1001

    @Test(arguments: [FileTrust.Kind.regularFile, .fifo])
    func anOutputFileOfAnotherUserIsRefusedWhateverItsMode(kind: FileTrust.Kind) {
        let rule = FileTrust.outputFile(user: Self.user)
        #expect(throws: FileTrust.Refusal.owner(Self.other)) {
            try rule.check(Status(kind: kind, owner: Self.other, permissions: 0o666))
        }
        #expect(throws: FileTrust.Refusal.owner(0), "root's file is not the user's either") {
            try rule.check(Status(kind: kind, owner: 0, permissions: 0o666))
        }
        #expect(throws: Never.self) { try rule.check(Status(kind: kind, owner: Self.user, permissions: 0o644)) }
    }

    /// Only root's /dev/null (1:3) and /dev/full (1:7), which keep nothing: never a disk, a terminal or another
    /// device, whoever owns it (root's speech log pointed at /dev/sda, or a config's audio file at a tty).
    @Test func anOutputDeviceIsOnlyRootsNullOrFull() {
        let rule = FileTrust.outputFile(user: Self.user)
        let null: UInt64 = 1 << 8 | 3
        let full: UInt64 = 1 << 8 | 7
        for device in [null, full] {
            #expect(throws: Never.self) {
                try rule.check(Status(kind: .characterDevice, owner: 0, permissions: 0o666, device: device))
            }
        }
        #expect(throws: FileTrust.Refusal.kind(.blockDevice), "a disk") {
            try rule.check(Status(kind: .blockDevice, owner: 0, permissions: 0o660, device: 8 << 8))
        }
        #expect(throws: FileTrust.Refusal.device(.characterDevice), "root's console") {
            try rule.check(Status(kind: .characterDevice, owner: 0, permissions: 0o620, device: 4 << 8 | 1))
        }
        #expect(throws: FileTrust.Refusal.device(.characterDevice), "the user's own terminal") {
            try rule.check(Status(kind: .characterDevice, owner: Self.user, permissions: 0o620, device: 136 << 8))
        }
        #expect(throws: FileTrust.Refusal.owner(Self.user), "a null device only root can make") {
            try rule.check(Status(kind: .characterDevice, owner: Self.user, permissions: 0o666, device: null))
        }
    }

    @Test func anOutputFileWithAnotherNameIsRefused() {
        let rule = FileTrust.outputFile(user: Self.user)
        #expect(throws: FileTrust.Refusal.otherNames(2)) {
            try rule.check(Status(kind: .regularFile, owner: Self.user, permissions: 0o600, links: 2))
        }
    }

    @Test(arguments: [FileTrust.Kind.directory, .symbolicLink, .socket])
    func anOutputFileIsNeverADirectoryLinkOrSocket(kind: FileTrust.Kind) {
        #expect(throws: FileTrust.Refusal.kind(kind)) {
            try FileTrust.outputFile(user: Self.user).check(Status(kind: kind, owner: Self.user, permissions: 0o600))
        }
    }

    @Test(arguments: [0o750, 0o705, 0o701, 0o710] as [mode_t])
    func aPrivateDirectoryIsOpenToNoOneElse(permissions: mode_t) {
        let rule = FileTrust.privateDirectory(user: Self.user)
        #expect(throws: FileTrust.Refusal.openToOthers) {
            try rule.check(Status(kind: .directory, owner: Self.user, permissions: permissions))
        }
        #expect(throws: Never.self) { try rule.check(Status(kind: .directory, owner: Self.user, permissions: 0o700)) }
    }

    @Test func anOwnDirectoryMayBeReadButNotWrittenByOthers() {
        let rule = FileTrust.ownDirectory(Self.user)
        #expect(throws: Never.self) { try rule.check(Status(kind: .directory, owner: Self.user, permissions: 0o755)) }
        #expect(throws: FileTrust.Refusal.writableByOthers) {
            try rule.check(Status(kind: .directory, owner: Self.user, permissions: 0o770))
        }
        #expect(throws: FileTrust.Refusal.writableByOthers, "sticky is no excuse below the top") {
            try rule.check(Status(kind: .directory, owner: Self.user, permissions: 0o1777))
        }
    }

    @Test func anAncestorIsRootsOrTheOwnersAndOnlyRootsStickyOneMayBeShared() {
        let rule = FileTrust.ancestor(of: Self.user)
        #expect(throws: Never.self) { try rule.check(Status(kind: .directory, owner: 0, permissions: 0o1777)) }
        #expect(throws: Never.self) { try rule.check(Status(kind: .directory, owner: Self.user, permissions: 0o755)) }
        #expect(throws: FileTrust.Refusal.writableByOthers) {
            try rule.check(Status(kind: .directory, owner: Self.user, permissions: 0o1777))
        }
        #expect(throws: FileTrust.Refusal.owner(Self.other)) {
            try rule.check(Status(kind: .directory, owner: Self.other, permissions: 0o755))
        }
    }

    @Test(arguments: [0o600, 0o666, 0o777] as [mode_t])
    func aSocketIsTheOwnersWhateverItsModeAndNeverALinkOrAFile(permissions: mode_t) {
        let rule = FileTrust.socket(of: Self.user)
        #expect(throws: Never.self) {
            try rule.check(Status(kind: .socket, owner: Self.user, permissions: permissions))
        }
        #expect(throws: FileTrust.Refusal.owner(Self.other)) {
            try rule.check(Status(kind: .socket, owner: Self.other, permissions: permissions))
        }
        #expect(throws: FileTrust.Refusal.owner(0), "root's socket is not the user's either") {
            try rule.check(Status(kind: .socket, owner: 0, permissions: permissions))
        }
        for kind in [FileTrust.Kind.symbolicLink, .regularFile, .fifo] {
            #expect(throws: FileTrust.Refusal.kind(kind), "the type is judged before the owner") {
                try rule.check(Status(kind: kind, owner: Self.other, permissions: permissions))
            }
        }
    }

    @Test func aDirectoryOwnedByTheUserIsTheirsWhateverItsMode() {
        let rule = FileTrust.directory(ownedBy: Self.user)
        #expect(throws: Never.self) { try rule.check(Status(kind: .directory, owner: Self.user, permissions: 0o777)) }
        #expect(throws: FileTrust.Refusal.owner(0)) {
            try rule.check(Status(kind: .directory, owner: 0, permissions: 0o700))
        }
        #expect(throws: FileTrust.Refusal.kind(.symbolicLink)) {
            try rule.check(Status(kind: .symbolicLink, owner: Self.user, permissions: 0o777))
        }
    }

    @Test func eachRefusalIsOneLineThatSaysWhatWasFound() {
        let refusals: [FileTrust.Refusal] = [
            .kind(.fifo), .owner(0), .writableByOthers, .openToOthers, .otherNames(3),
            .unexaminable(Errno(rawValue: EACCES)),
        ]
        for refusal in refusals {
            #expect(!refusal.description.isEmpty && !refusal.description.contains("\n"))
        }
        #expect(FileTrust.Refusal.owner(0).description == "it belongs to root, not to you")
        #expect(FileTrust.Refusal.otherNames(2).description.contains("1 other name "))
    }

    // MARK: Real files

    private func scratch() throws -> String {
        var template = Array("/tmp/otc-trust-XXXXXX".utf8CString)
        let made = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) })
        return String(cString: made)
    }

    private func remove(_ directory: String) {
        try? FileManager.default.removeItem(atPath: directory)
    }

    @Test func aFileOfTheUsersOwnOpenedIsTrustedAndALinkToItIsNot() throws {
        let directory = try scratch()
        defer { remove(directory) }
        let path = directory + "/log"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        #expect(throws: Never.self) { try FileTrust.outputFile().check(descriptor: descriptor) }
        try #require(link(path, directory + "/other") == 0)
        #expect(throws: FileTrust.Refusal.otherNames(2)) { try FileTrust.outputFile().check(descriptor: descriptor) }
        try #require(symlink(path, directory + "/link") == 0)
        #expect(throws: FileTrust.Refusal.kind(.symbolicLink)) {
            try FileTrust.outputFile().check(path: directory + "/link")
        }
    }

    @Test(.enabled(if: getuid() == 0, "chown to another user needs root"))
    func aFileChownedToAnotherUserIsRefusedOnItsDescriptor() throws {
        let directory = try scratch()
        defer { remove(directory) }
        let path = directory + "/planted"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try #require(fchown(descriptor, 65534, 65534) == 0)
        #expect(throws: FileTrust.Refusal.owner(65534)) { try FileTrust.outputFile().check(descriptor: descriptor) }
    }

    @Test(.enabled(if: getuid() == 0, "chown to another user needs root"))
    func aDirectoryAboveOfAnotherUserIsNamed() throws {
        let directory = try scratch()
        defer { remove(directory) }
        let above = directory + "/theirs"
        try #require(mkdir(above, 0o755) == 0 && chown(above, 65534, 65534) == 0)
        try #require(mkdir(above + "/mine", 0o700) == 0)
        #expect(throws: FileTrust.PathRefusal.above(path: above, .owner(65534))) {
            try FileTrust.checkAncestors(of: above + "/mine/socket", owner: 0)
        }
        #expect(throws: FileTrust.PathRefusal.notAPlainPath) {
            try FileTrust.checkAncestors(of: directory + "/../x", owner: 0)
        }
    }

    // MARK: A socket's directory, on real directories

    @Test func aSocketDirectoryMayBeReadByOthersButNotWrittenNorBeALink() throws {
        let directory = try scratch()
        defer { remove(directory) }
        let rule = FileTrust.socketDirectory()
        #expect(throws: Never.self) { try rule.check(path: directory) }
        try #require(chmod(directory, 0o755) == 0)
        #expect(throws: Never.self, "others may read and enter it") { try rule.check(path: directory) }
        for mode: mode_t in [0o770, 0o730, 0o757, 0o2775] {
            try #require(chmod(directory, mode) == 0)
            #expect(throws: FileTrust.Refusal.writableByOthers, "mode \(String(mode, radix: 8))") {
                try rule.check(path: directory)
            }
        }
        try #require(chmod(directory, 0o700) == 0)
        try #require(mkdir(directory + "/real", 0o700) == 0 && symlink(directory + "/real", directory + "/link") == 0)
        #expect(throws: FileTrust.Refusal.kind(.symbolicLink)) { try rule.check(path: directory + "/link") }
        #expect(throws: Never.self, "/tmp: root's, sticky") { try rule.check(path: "/tmp") }
    }

    @Test func onlyRootsStickyDirectoryMaySeeOthersWriteIn() throws {
        let directory = try scratch()
        defer { remove(directory) }
        try #require(chmod(directory, 0o1777) == 0)
        if getuid() != 0 {
            #expect(throws: FileTrust.Refusal.writableByOthers, "the user's own, shared") {
                try FileTrust.socketDirectory().check(path: directory)
            }
            return
        }
        #expect(throws: Never.self, "root's, as /tmp") {
            try FileTrust.socketDirectory(of: 1000).check(path: directory)
        }
        try #require(chown(directory, 65534, 65534) == 0)
        #expect(throws: FileTrust.Refusal.owner(65534), "another user's, for root") {
            try FileTrust.socketDirectory().check(path: directory)
        }
        #expect(throws: FileTrust.Refusal.writableByOthers, "their own, shared with everyone") {
            try FileTrust.socketDirectory(of: 65534).check(path: directory)
        }
    }
}
