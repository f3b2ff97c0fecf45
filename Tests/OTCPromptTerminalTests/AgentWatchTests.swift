import Foundation
import Glibc
import Testing

@testable import OTCPromptTerminal

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

    @Test func aTruncatedRecordIsIgnoredNotReadPastItsEnd() {
        let bytes = record(watch: 7, mask: IN_MOVED_TO, name: "ask.1").dropLast(3)
        #expect(DirectoryWatch.parse(Array(bytes)[...], directories: [7: 0]).isEmpty)
    }

    @Test func theRelayHangsUpWhenItsFileIsRemoved() throws {
        let path = NSTemporaryDirectory() + "/otc-relay-\(UUID().uuidString)"
        FileManager.default.createFile(atPath: path, contents: Data("x".utf8))
        let relay = try #require(try HangUpRelay.request(path: path, pid: getpid(), deadline: nil))
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
        #expect(try HangUpRelay.request(path: "/nonexistent/ask.1", pid: nil, deadline: nil) == nil)
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
        #expect(HangUpRelay.processExists(getpid()))
        // Not reaped: a zombie once it has ended.
        let ended = (0..<500).contains { _ in
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            if stat.contains(") Z ") { return true }
            usleep(10_000)
            return false
        }
        #expect(ended)
        #expect(!HangUpRelay.processExists(pid))
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        #expect(!HangUpRelay.processExists(pid))
    }
}
