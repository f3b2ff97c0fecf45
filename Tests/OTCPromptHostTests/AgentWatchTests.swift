import Foundation
import Glibc
import Testing

@testable import OTCPromptHost

/// The agent's waits, on real directories and processes of the test's own: inotify's records, the relay's
/// hang-up, and a request directory's refusals.
@Suite struct AgentWatchTests {
    private func record(watch: Int32, mask: Int32, name: String) -> [UInt8] {
        var bytes: [UInt8] = []
        let padded = Array(name.utf8) + [UInt8](repeating: 0, count: 16 - name.utf8.count % 16)
        for word in [UInt32(bitPattern: watch), UInt32(bitPattern: mask), 0, UInt32(padded.count)] {
            withUnsafeBytes(of: word.littleEndian) { bytes += $0 }
        }
        return bytes + padded
    }

    @Test func inotifyRecordsBecomeChangesOfTheirDirectory() {
        let bytes =
            record(watch: 7, mask: IN_MOVED_TO, name: "ask.1") + record(watch: 7, mask: IN_DELETE, name: "ask.1")
            + record(watch: 9, mask: IN_CLOSE_WRITE, name: "ask.2") + record(watch: -1, mask: IN_Q_OVERFLOW, name: "")
            + record(watch: 3, mask: IN_CLOSE_WRITE, name: "unwatched")
        let changes = DirectoryWatch.parse(bytes[...], directories: [7: 0, 9: 1])
        #expect(
            changes == [
                .added(directory: 0, name: "ask.1"), .removed(directory: 0, name: "ask.1"),
                .added(directory: 1, name: "ask.2"), .lost,
            ])
    }

    @Test func aDirectoryGoneAndAChangeAboveOneAwaitedAreChangesToo() {
        let bytes =
            record(watch: 7, mask: IN_DELETE_SELF, name: "") + record(watch: 7, mask: IN_IGNORED, name: "")
            + record(watch: 4, mask: IN_CREATE | IN_ISDIR, name: "ask") + record(watch: 4, mask: IN_DELETE, name: "x")
        let changes = DirectoryWatch.parse(bytes[...], directories: [7: 0], returns: [4: [1, 2]])
        #expect(changes == [.directoryGone(0), .directoryMayBeBack(1), .directoryMayBeBack(2)])
        let parent =
            record(watch: 3, mask: IN_DELETE | IN_ISDIR, name: "other")
            + record(watch: 3, mask: IN_DELETE | IN_ISDIR, name: "ask")
        #expect(
            DirectoryWatch.parse(parent[...], directories: [7: 0], guards: [3: [(0, "ask")]]) == [.directoryGone(0)])
    }

    /// A watched directory removed, and its parent too, then made again: the watch follows it down from the
    /// nearest directory that is there, and watches it again once it is back.
    @Test func aDirectoryRemovedAndMadeAgainIsWatchedAgain() throws {
        let root = NSTemporaryDirectory() + "/otc-watch-\(UUID().uuidString)"
        let place = root + "/otc-prompt/ask"
        try FileManager.default.createDirectory(atPath: place, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let watch = try DirectoryWatch(paths: [place])
        try watch.watch(0)
        // Held open, as the agent holds it: its own IN_DELETE_SELF waits for the close, its parent tells at once.
        let held = open(place, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        #expect(rmdir(place) == 0)
        #expect(watch.changes().contains(.directoryGone(0)))
        // Let go, as the agent lets go of a directory it has lost (a removed directory held open keeps its parent's
        // own removal from being told).
        close(held)
        watch.awaitReturn(0)
        #expect(watch.isAwaiting(0) && !watch.mayBeBack(0))
        // The directory watched for its return goes too: that is news, and the watch moves up.
        #expect(rmdir(root + "/otc-prompt") == 0)
        #expect(watch.keepChanges { $0 == .directoryMayBeBack(0) } && watch.mayBeBack(0))
        watch.awaitReturn(0)
        #expect(watch.isAwaiting(0) && !watch.mayBeBack(0))
        #expect(mkdir(root + "/otc-prompt", 0o700) == 0)
        #expect(watch.keepChanges { $0 == .directoryMayBeBack(0) } && watch.mayBeBack(0))
        watch.awaitReturn(0)
        #expect(!watch.mayBeBack(0), "the nearer directory is watched now")
        #expect(mkdir(place, 0o700) == 0)
        #expect(watch.keepChanges { $0 == .directoryMayBeBack(0) } && watch.mayBeBack(0))
        _ = watch.changes()
        try watch.watch(0)
        #expect(!watch.isAwaiting(0))
        close(open(place + "/ask.back", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600))
        #expect(watch.changes() == [.added(directory: 0, name: "ask.back")])
    }

    @Test func aTruncatedRecordIsIgnoredNotReadPastItsEnd() {
        let bytes = record(watch: 7, mask: IN_MOVED_TO, name: "ask.1").dropLast(3)
        #expect(DirectoryWatch.parse(Array(bytes)[...], directories: [7: 0]).isEmpty)
    }

    @Test func theRelayHangsUpWhenItsFileIsRemoved() throws {
        let path = NSTemporaryDirectory() + "/otc-relay-\(UUID().uuidString)"
        FileManager.default.createFile(atPath: path, contents: Data("x".utf8))
        let relay = try #require(try HangUpRelay.request(path: path, process: getpid(), deadline: nil))
        var descriptor = pollfd(fd: relay.descriptor, events: 0x2000, revents: 0)
        #expect(poll(&descriptor, 1, 100) == 0, "nothing happened yet")
        unlink(path)
        #expect(poll(&descriptor, 1, 5000) == 1 && descriptor.revents & Int16(POLLHUP) != 0)
        relay.stop()
    }

    @Test func theRelayHangsUpAtItsDeadline() throws {
        let relay = try HangUpRelay(watching: [], deadline: .now + .milliseconds(50))
        var descriptor = pollfd(fd: relay.descriptor, events: 0x2000, revents: 0)
        #expect(poll(&descriptor, 1, 5000) == 1)
        relay.stop()
    }

    @Test func aRequestForAFileAlreadyGoneHasNoRelay() throws {
        #expect(try HangUpRelay.request(path: "/nonexistent/ask.1", process: nil, deadline: nil) == nil)
    }

    @Test func aDirectoryOthersMayWriteIsRefused() throws {
        let path = NSTemporaryDirectory() + "/otc-ask-\(UUID().uuidString)"
        mkdir(path, 0o700)
        chmod(path, 0o777)
        defer { rmdir(path) }
        #expect(throws: AskDirectory.Refusal.writableByOthers(path)) { try AskDirectory(path: path, owner: getuid()) }
    }

    @Test func aDirectoryOfAnotherUserIsRefused() throws {
        let path = NSTemporaryDirectory() + "/otc-ask-\(UUID().uuidString)"
        mkdir(path, 0o700)
        defer { rmdir(path) }
        #expect(throws: AskDirectory.Refusal.wrongOwner(path, getuid())) {
            try AskDirectory(path: path, owner: getuid() &+ 1)
        }
    }

    @Test func aSymlinkToADirectoryIsRefused() throws {
        let path = NSTemporaryDirectory() + "/otc-ask-\(UUID().uuidString)"
        symlink(NSTemporaryDirectory(), path)
        defer { unlink(path) }
        #expect(throws: AskDirectory.Refusal.notADirectory(path)) { try AskDirectory(path: path, owner: getuid()) }
    }

    @Test func aZombieIsNoLongerRunning() throws {
        var pid: pid_t = 0
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { free(arguments[0]) }
        try #require(posix_spawn(&pid, "/bin/true", nil, nil, arguments, environ) == 0)
        #expect(ProcessLiveness.isRunning(getpid()))
        // Not reaped: a zombie once it has ended.
        let ended = (0..<500).contains { _ in
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            if stat.contains(") Z ") { return true }
            usleep(10_000)
            return false
        }
        #expect(ended)
        #expect(!ProcessLiveness.isRunning(pid))
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        #expect(!ProcessLiveness.isRunning(pid))
    }
}
