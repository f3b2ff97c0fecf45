// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc
import OTCPromptCore
import OTCPromptHost
import OTCPromptTestSupport
import Testing

/// `AskPost` and `AskPostDirectory`: a question posted as systemd's queriers post theirs, its answer taken only from
/// this user or root, and nothing left behind.
@Suite struct AskPostTests {
    /// A private directory of the test's own, removed with what is in it.
    final class Directory {
        let path: String
        init() throws {
            var template = Array("/tmp/otc-ask-XXXXXX".utf8CString)
            guard let made = mkdtemp(&template) else { throw POSIXError(.EIO) }
            path = String(cString: made)
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        var entries: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
    }

    /// Sends `text` as one datagram to `path`, as an agent does.
    private func send(_ text: String, to path: String) -> Bool {
        guard let address = UnixSocketAddress(path: path) else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(fd) }
        let bytes = Array(text.utf8)
        return address.withSocketAddress { sendto(fd, bytes, bytes.count, 0, $0, $1) == bytes.count }
    }

    private func text(_ waited: AskPost.Waited) -> String? {
        guard case .answer(let bytes, let count) = waited else { return nil }
        return String(decoding: bytes.bytes[..<count], as: UTF8.self)
    }

    @Test func aPostIsASocketForItsOwnerThenAnAskFileAndWithdrawingLeavesNothing() throws {
        let directory = try Directory()
        let post = try AskPost(directory: directory.path)
        var status = stat()
        #expect(lstat(post.socketPath, &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFSOCK)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(post.askPath == nil, "no ask file before it is published")
        try post.publish("[Ask]\nSocket=\(post.socketPath)\n")
        let askPath = try #require(post.askPath)
        #expect(try String(contentsOfFile: askPath, encoding: .utf8) == "[Ask]\nSocket=\(post.socketPath)\n")
        #expect(lstat(askPath, &status) == 0 && status.st_mode & 0o777 == 0o600)
        #expect(directory.entries.count == 2, "the temporary name is gone: \(directory.entries)")
        #expect(directory.entries.allSatisfy { $0.hasPrefix("ask.") || $0.hasPrefix("sck.") })
        post.withdraw()
        #expect(directory.entries.isEmpty)
    }

    @Test func anAnswerFromThisUserIsTakenAsItsBytes() throws {
        let directory = try Directory()
        let post = try AskPost(directory: directory.path)
        try post.publish("[Ask]\n")
        #expect(send("+correct horse", to: post.socketPath))
        #expect(text(post.waitForAnswer(until: .now + .seconds(5), signals: nil, caller: [])) == "+correct horse")
    }

    @Test func aPostThatIsNotAnsweredInTimeEnds() throws {
        let directory = try Directory()
        let post = try AskPost(directory: directory.path)
        let start = MonotonicInstant.now
        let waited = post.waitForAnswer(until: start + .milliseconds(100), signals: nil, caller: [])
        guard case .timedOut = waited else {
            Issue.record("expected a time-out, got \(waited)")
            return
        }
        #expect(MonotonicInstant.now - start >= .milliseconds(100))
    }

    @Test func theCallerHangingUpEndsTheWait() throws {
        let directory = try Directory()
        let post = try AskPost(directory: directory.path)
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        #expect(AskPost.callerPipes([ends[1]]) == [ends[1]])
        let waited = post.waitForAnswer(until: .now + .seconds(5), signals: nil, caller: [ends[1]])
        guard case .callerGone = waited else {
            Issue.record("expected the caller gone, got \(waited)")
            return
        }
    }

    @Test(.enabled(if: getuid() == 0, "needs root: the other user's datagram is sent as nobody"))
    func aDatagramFromAnotherUserIsIgnored() throws {
        let directory = try Directory()
        let post = try AskPost(directory: directory.path)
        // Both made by this test (the directory, and the socket through the code under test): open to anyone, so
        // that only the credentials can keep nobody's answer out.
        #expect(chmod(directory.path, 0o711) == 0 && chmod(post.socketPath, 0o666) == 0)
        let intruder = try runWithStatus(
            "/usr/bin/setpriv",
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c",
                "import socket, sys; s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.sendto(b'+stolen', sys.argv[1])",
                post.socketPath,
            ])
        #expect(exitStatus(intruder.status) == 0, "nobody's datagram was sent: \(intruder.output)")
        #expect(send("+mine", to: post.socketPath))
        #expect(text(post.waitForAnswer(until: .now + .seconds(5), signals: nil, caller: [])) == "+mine")
    }

    /// A poster killed with SIGKILL cannot withdraw: the next one removes what it left, and only that: what a poster
    /// of this namespace provably made (its names, its mark) whose process is gone. Never a live request, another
    /// namespace's, systemd's, a link, or a file it did not name.
    @Test func aDeadPostersQuestionIsRemovedAndNothingElse() throws {
        let directory = try Directory()
        let own = try #require(ProcessLiveness.ownMark())
        let gone = try SpawnedProgram("/bin/true", [], environment: [:])
        #expect(gone.waitForExit(deadline: .seconds(10)) == 0)
        let dead = gone.processID
        func post(_ name: String, pid: Int32, mark: String?, socket: String? = nil) throws {
            let socketPath = directory.path + "/" + (socket ?? "sck." + name)
            let address = try #require(UnixSocketAddress(path: socketPath))
            let bound = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            _ = address.withSocketAddress { bind(bound, $0, $1) }
            close(bound)
            let text = "[Ask]\nPID=\(pid)\nSocket=\(socketPath)\n" + (mark.map { "X-OTC-Poster=\($0)\n" } ?? "")
            #expect(FileManager.default.createFile(atPath: directory.path + "/ask." + name, contents: Data(text.utf8)))
        }
        let ns = own.namespace
        try post("000000000000dead", pid: dead, mark: "\(ns):\(dead):1")
        try post("0000000000a11e00", pid: getpid(), mark: "\(ns):\(getpid()):\(own.start)")
        // The same PID started at another time: another process, so the poster has gone.
        try post("000000000000face", pid: getpid(), mark: "\(ns):\(getpid()):\(own.start + 1)")
        try post("00000000000000f0", pid: dead, mark: "\(ns &+ 1):\(dead):1")
        try post("0000000000005d00", pid: dead, mark: nil)
        try post("namedbyanother", pid: dead, mark: "\(ns):\(dead):1")
        try post("0000000000000bad", pid: dead, mark: "\(ns):\(dead):1", socket: "sck.0000000000000b0b")
        let elsewhere = try Directory()
        #expect(
            FileManager.default.createFile(
                atPath: elsewhere.path + "/target",
                contents: "[Ask]\nPID=\(dead)\nX-OTC-Poster=\(ns):\(dead):1\n".data(using: .utf8)))
        #expect(symlink(elsewhere.path + "/target", directory.path + "/ask.000000000000111c") == 0)
        #expect(AskPost.removeAbandoned(in: directory.path) == 2)
        #expect(
            Set(directory.entries) == [
                "ask.000000000000111c", "ask.00000000000000f0", "ask.0000000000000bad", "ask.0000000000005d00",
                "ask.0000000000a11e00", "ask.namedbyanother", "sck.00000000000000f0", "sck.0000000000000b0b",
                "sck.0000000000005d00", "sck.0000000000a11e00", "sck.namedbyanother",
            ])
        #expect(elsewhere.entries == ["target"])
    }

    /// The one liveness rule: a process is judged only where its PID means something.
    @Test func aProcessIsJudgedOnlyInItsOwnNamespace() throws {
        let own = try #require(ProcessLiveness.ownMark())
        #expect(own.pid == getpid())
        #expect(ProcessLiveness.judge(pid: getpid(), mark: own) == .running)
        var elsewhere = own
        elsewhere.namespace &+= 1
        #expect(ProcessLiveness.judge(pid: getpid(), mark: elsewhere) == .unknowable)
        #expect(ProcessLiveness.judge(pid: nil, mark: nil) == .unknowable)
        #expect(ProcessLiveness.judge(pid: getpid(), mark: nil) == .running)
        var reused = own
        reused.start += 1
        #expect(ProcessLiveness.judge(pid: getpid(), mark: reused) == .gone)
    }

    @Test func theDirectoriesAreMadeForTheUserAlone() throws {
        let runtime = try Directory()
        let path = try AskPostDirectory.otcPrompt.prepare(environment: ["XDG_RUNTIME_DIR": runtime.path])
        #expect(path == runtime.path + "/otc-prompt/ask")
        for level in [runtime.path + "/otc-prompt", path] {
            var status = stat()
            #expect(lstat(level, &status) == 0 && status.st_mode & 0o777 == 0o700)
        }
        #expect(
            try AskPostDirectory.systemd.prepare(environment: ["XDG_RUNTIME_DIR": "/" + runtime.path + "//"])
                == runtime.path + "/systemd/ask-password", "written plainly, as an agent takes it")
    }

    @Test func aLinkedOrSharedDirectoryIsRefused() throws {
        let runtime = try Directory()
        let elsewhere = try Directory()
        #expect(symlink(elsewhere.path, runtime.path + "/systemd") == 0)
        #expect(throws: HostError.self) {
            try AskPostDirectory.systemd.prepare(environment: ["XDG_RUNTIME_DIR": runtime.path])
        }
        #expect(elsewhere.entries.isEmpty, "nothing was made through the link")
        #expect(mkdir(runtime.path + "/otc-prompt", 0o700) == 0 && chmod(runtime.path + "/otc-prompt", 0o770) == 0)
        #expect(throws: HostError.self) {
            try AskPostDirectory.otcPrompt.prepare(environment: ["XDG_RUNTIME_DIR": runtime.path])
        }
        #expect(throws: HostError.self) { try AskPostDirectory.otcPrompt.prepare(environment: [:]) }
    }

    @Test(.enabled(if: getuid() == 0, "needs root: the directory is given to another user"))
    func anotherUsersDirectoryIsRefused() throws {
        let runtime = try Directory()
        #expect(
            mkdir(runtime.path + "/otc-prompt", 0o700) == 0 && chown(runtime.path + "/otc-prompt", 65534, 65534) == 0)
        #expect(throws: HostError.self) {
            try AskPostDirectory.otcPrompt.prepare(environment: ["XDG_RUNTIME_DIR": runtime.path])
        }
    }
}
