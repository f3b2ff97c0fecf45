import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// What stays in the pinentry's memory once it has sent a passphrase: it is run as gpg-agent runs it
/// (Assuan on pipes, the dialog on a pty), the passphrase typed a key at a time, the "D" line read,
/// and, while the process waits for its next command, every readable mapping in /proc/PID/maps is
/// searched through /proc/PID/mem for the passphrase and for its Assuan-escaped form.
@Suite(
    .runsPrograms,
    .serialized,
    .enabled(if: getuid() == 0, "reading another process's memory through /proc/PID/mem needs root (ptrace access)"))
struct SecretMemoryEndToEndTests {
    @Test(
        .timeLimit(.minutes(5)),
        arguments: [
            ("x7%Qk2#z", false),  // 8 bytes: a Swift String this short lives inline, on the stack
            ("c0rrect%horse_b4tt3r", false),  // 20 bytes: a String this long lives on the heap
            ("x7%Qk2#z", true),  // SETREPEAT: typed twice, the two compared
        ])
    func noCopyOfThePassphraseRemainsInMemoryAfterTheDataLine(passphrase: String, repeated: Bool) async throws {
        let agent = try PipedPinentry()
        defer { agent.end() }
        agent.send("OPTION ttyname=\(agent.run.terminal!.slaveName)\nSETPROMPT Passphrase:\n")
        if repeated { agent.send("SETREPEAT Repeat:\n") }
        agent.send("GETPIN\n")
        agent.typeSlowly(passphrase, alreadyEntered: 0)
        if repeated { agent.typeSlowly(passphrase, alreadyEntered: passphrase.count) }
        let escaped = passphrase.replacingOccurrences(of: "%", with: "%25")
        #expect(
            await agent.run.waitForStandardOutput(containing: "D \(escaped)\nOK\n", deadline: .seconds(10)),
            "stdout: \(agent.run.standardOutput)")
        // The process now waits for gpg-agent's next command, as it would between two dialogs.
        let copies = try MemorySearch(processID: agent.run.processID).count(of: [passphrase, escaped])
        #expect(copies == [0, 0], "copies of \(passphrase) and \(escaped) in memory: \(copies)")
        agent.send("BYE\n")
        #expect(await agent.run.waitForExit(deadline: .seconds(10)) == .exited(0))
    }
    /// gpg-agent may act on OK at once: the passphrase must be gone before OK is written, not after. The pinentry's
    /// stdout is a one-page pipe filled so that the "D" line just fits: its write of OK then blocks, and its memory
    /// is searched while it waits there, whatever the machine's load.
    @Test(.timeLimit(.minutes(5)))
    func thePassphraseIsWipedBeforeOKIsWritten() async throws {
        let passphrase = "c0rrect%horse_b4tt3r"
        let escaped = passphrase.replacingOccurrences(of: "%", with: "%25")
        let agent = try PipedPinentry(replies: .onePagePipe)
        defer { agent.end() }
        agent.send("OPTION ttyname=\(agent.run.terminal!.slaveName)\nSETPROMPT Passphrase:\n")
        // The greeting and two OKs read, the pipe is empty: fill it but for the data line.
        #expect(agent.readReplies(until: { $0.components(separatedBy: "OK").count - 1 >= 3 }))
        agent.fillReplies(leaving: "D \(escaped)\n".utf8.count)
        agent.send("GETPIN\n")
        agent.typeSlowly(passphrase, alreadyEntered: 0)
        #expect(agent.waitsWritingReplies(), "the pinentry never blocked writing its reply")
        let copies = try MemorySearch(processID: agent.run.processID).count(of: [passphrase, escaped])
        #expect(copies == [0, 0], "copies of \(passphrase) and \(escaped) in memory while OK waits: \(copies)")
        #expect(agent.readReplies(until: { $0.hasSuffix("D \(escaped)\nOK\n") }))
        agent.send("BYE\n")
        #expect(await agent.run.waitForExit(deadline: .seconds(10)) == .exited(0))
    }
}

/// gpg-agent's side of a pinentry: its commands on a FIFO that is the pinentry's stdin, its replies
/// on the harness's stdout pipe, the dialog on the harness's pty.
private final class PipedPinentry {
    let run: PseudoTerminalProcess
    private let directory: String
    private let commands: Int32
    private let speechLog: String

    /// Where the pinentry's replies go: the harness's stdout pipe, or a pipe of one page the test reads itself.
    enum Replies { case standardOutput, onePagePipe }
    /// The one-page pipe's end, read and written by the test (`readReplies`, `fillReplies`); -1 without one.
    private let replies: Int32
    private var replyBytes: [UInt8] = []

    init(replies where: Replies = .standardOutput) throws {
        directory = NSTemporaryDirectory() + "/otc-memory-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let fifo = directory + "/commands"
        let replyFifo = directory + "/replies"
        speechLog = directory + "/speech.jsonl"
        guard mkfifo(fifo, 0o600) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        // Read and write: the open does not wait for the other end, and the pipe never sees its end early.
        commands = open(fifo, O_RDWR)
        if case .onePagePipe = `where` {
            guard mkfifo(replyFifo, 0o600) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            replies = open(replyFifo, O_RDWR | O_NONBLOCK)
            _ = fcntl(replies, 1031, 4096)  // F_SETPIPE_SZ: one page
        } else {
            replies = -1
        }
        let redirect = `where` == .onePagePipe ? #" > "$3""# : ""
        run = try PseudoTerminalProcess(
            executable: "/bin/sh",
            arguments: [
                "-c", #"exec "$0" --pinentry --speech text --speech-log "$2" < "$1""# + redirect, PromptRun.binary,
                fifo, speechLog, replyFifo,
            ],
            environment: PromptRun.environment())
    }

    /// Reads the one-page pipe until what was read holds `done`; false after 10 s.
    func readReplies(until done: (String) -> Bool) -> Bool {
        let clock = ContinuousClock()
        let end = clock.now + .seconds(10)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while clock.now < end {
            let count = read(replies, &buffer, buffer.count)
            if count > 0 { replyBytes += buffer[..<count] }
            if done(String(decoding: replyBytes, as: UTF8.self)) { return true }
            if count <= 0 { _ = run.waitForScreen(containing: "\u{0}never", deadline: .milliseconds(10)) }
        }
        return false
    }

    /// Fills the empty one-page pipe so that only `room` bytes fit, as filler the replies read later begin with.
    func fillReplies(leaving room: Int) {
        let filler = [UInt8](repeating: UInt8(ascii: "#"), count: 4096 - room)
        _ = filler.withUnsafeBytes { write(replies, $0.baseAddress, $0.count) }
    }

    /// Waits (10 s at most) until the pinentry is blocked in a write to its stdout (/proc/PID/syscall).
    func waitsWritingReplies() -> Bool {
        let clock = ContinuousClock()
        let end = clock.now + .seconds(10)
        while clock.now < end {
            let call = (try? String(contentsOfFile: "/proc/\(run.processID)/syscall", encoding: .utf8)) ?? ""
            // write(2) is system call 1 on x86_64, 64 on aarch64.
            if call.hasPrefix("1 0x1 ") || call.hasPrefix("64 0x1 ") { return true }
            _ = run.waitForScreen(containing: "\u{0}never", deadline: .milliseconds(10))
        }
        return false
    }

    func send(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { write(commands, $0.baseAddress, $0.count - 1) }
    }

    /// Types one key at a time, each after the previous one was heard ("bullet, N entered"), as a
    /// person types: a burst would sit whole in a read buffer, which is not what is measured here.
    func typeSlowly(_ passphrase: String, alreadyEntered: Int) {
        waitForLog(lines: alreadyEntered == 0 ? "Passphrase" : "Repeat", count: 1)
        for (index, character) in passphrase.enumerated() {
            run.type(String(character))
            waitForLog(lines: "entered", count: alreadyEntered + index + 1)
        }
        run.type("\r")
    }

    private func waitForLog(lines text: String, count: Int) {
        let clock = ContinuousClock()
        let end = clock.now + .seconds(10)
        while clock.now < end {
            let log = (try? String(contentsOfFile: speechLog, encoding: .utf8)) ?? ""
            if log.split(separator: "\n").filter({ $0.contains(text) }).count >= count { return }
            _ = run.waitForScreen(containing: "\u{0}never", deadline: .milliseconds(20))
        }
        Issue.record("the speech log never had \(count) lines with \(text)")
    }

    func end() {
        close(commands)
        if replies >= 0 { close(replies) }
        _ = run.waitForExit(deadline: .seconds(5))
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// Searches a live process's memory: every readable mapping of /proc/PID/maps, read through /proc/PID/mem.
struct MemorySearch {
    let processID: pid_t

    /// How many times each needle occurs in the process's readable memory.
    func count(of needles: [String]) throws -> [Int] {
        let maps = try String(contentsOfFile: "/proc/\(processID)/maps", encoding: .utf8)
        let memory = open("/proc/\(processID)/mem", O_RDONLY)
        guard memory >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        defer { close(memory) }
        var counts = [Int](repeating: 0, count: needles.count)
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, fields[1].hasPrefix("r") else { continue }
            let bounds = fields[0].split(separator: "-").compactMap { UInt64($0, radix: 16) }
            guard bounds.count == 2 else { continue }
            guard let region = read(memory, from: bounds[0], to: bounds[1]) else { continue }
            for (index, needle) in needles.enumerated() {
                counts[index] += occurrences(of: Array(needle.utf8), in: region)
            }
        }
        return counts
    }

    /// The mapping's bytes; nil when the kernel will not give them (a guard page, [vvar]).
    private func read(_ memory: Int32, from start: UInt64, to end: UInt64) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: Int(end - start))
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes {
                pread(memory, $0.baseAddress! + done, $0.count - done, off_t(Int64(bitPattern: start + UInt64(done))))
            }
            if count <= 0 { break }
            done += count
        }
        return done == 0 ? nil : Array(bytes[..<done])
    }

    private func occurrences(of needle: [UInt8], in haystack: [UInt8]) -> Int {
        guard let first = needle.first, haystack.count >= needle.count else { return 0 }
        var found = 0
        haystack.withUnsafeBytes { hay in
            needle.withUnsafeBytes { pin in
                var index = 0
                let last = hay.count - pin.count
                while index <= last {
                    if hay[index] == first && memcmp(hay.baseAddress! + index, pin.baseAddress!, pin.count) == 0 {
                        found += 1
                    }
                    index += 1
                }
            }
        }
        return found
    }
}
