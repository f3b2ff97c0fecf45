import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// Signals, job control, huge pastes and a closed stdout: the terminal is always restored.
@Suite(.runsPrograms, .serialized)
struct RobustnessEndToEndTests {
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP, SIGQUIT])
    func signalRestoresTheTerminalAndEndsWithThatSignal(signal: Int32) async throws {
        let run = try await PromptRun([])
        run.type("12")
        #expect(await run.waitForEvent("digit"))
        run.process.sendSignal(signal)
        #expect(await run.exit() == .signaled(signal))
        #expect(run.terminalRestored)
        #expect(run.process.standardOutput == "")
        #expect(run.process.screen.hasSuffix("\u{1b}[?2004l") || run.process.screen.contains("\u{1b}[?2004l"))
    }

    @Test func controlZStopsWithTheTerminalRestoredAndContinueResumes() async throws {
        let logPath = NSTemporaryDirectory() + "/otc-e2e-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: logPath) }
        let process = try PseudoTerminalProcess(
            executable: PromptRun.binary, arguments: ["--speech", "none", "--speech-log", logPath],
            environment: PromptRun.environment(), jobControl: true)
        #expect(await process.waitForScreen(containing: "Verification code", deadline: .seconds(10)))
        process.type("98")
        process.type([0x1A])
        #expect(await process.waitForScreen(containing: "[stopped]", deadline: .seconds(10)))
        let whileStopped = process.slaveAttributes()
        #expect(whileStopped.c_lflag & tcflag_t(ICANON) != 0, "the terminal must be back in cooked mode while stopped")
        #expect(whileStopped.c_lflag & tcflag_t(ECHO) != 0)
        process.type("\r")
        let log = { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
        let clock = ContinuousClock()
        let end = clock.now + .seconds(10)
        while log().components(separatedBy: "\"prompt\"").count < 3, clock.now < end { usleep(20_000) }
        #expect(log().components(separatedBy: "\"prompt\"").count == 3, "re-announced after the resume: \(log())")
        process.type("5391")
        #expect(await process.waitForExit(deadline: .seconds(10)) == .exited(0))
        #expect(process.standardOutput == "985391\n")
        #expect(sameAttributes(process.attributesAtStart, process.slaveAttributes()))
    }

    /// As in `code=$(otc-prompt)` typed at a shell: the process group is orphaned, so the kernel
    /// would drop the stop. The prompt says it cannot be suspended and never leaves raw mode, where
    /// the tty itself would echo (masked!) digits in clear; it is not announced again.
    @Test func controlZInAnOrphanedProcessGroupKeepsThePromptWorking() async throws {
        let run = try await PromptRun(["--mask"])
        run.type("12")
        #expect(await run.waitForEvent("digit"))
        run.type([0x1A])
        #expect(await run.waitForEvent("notice"), "said that it cannot be suspended here")
        #expect(await run.logEntries().filter { $0.event == "prompt" }.count == 1)
        let attributes = run.process.slaveAttributes()
        #expect(attributes.c_lflag & tcflag_t(ECHO) == 0, "raw mode again: the tty must not echo")
        run.type("3456")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "123456\n")
        #expect(!visibleText(run.process.screen).contains("3456"), "a masked digit reached the screen")
        #expect(await run.logEntries().filter { $0.event == "digit" }.count == 5)
        #expect(run.terminalRestored)
    }

    /// A user's files are left as they are; only their contents are written.
    @Test func existingSpeechLogAndAudioFileKeepTheirMode() async throws {
        let audio = NSTemporaryDirectory() + "/otc-e2e-\(UUID().uuidString).wav"
        let log = NSTemporaryDirectory() + "/otc-e2e-\(UUID().uuidString).jsonl"
        defer { for path in [audio, log] { try? FileManager.default.removeItem(atPath: path) } }
        for path in [audio, log] {
            #expect(
                FileManager.default.createFile(atPath: path, contents: Data(), attributes: [.posixPermissions: 0o640]))
        }
        let process = try PseudoTerminalProcess(
            executable: PromptRun.binary, arguments: ["--audio-file", audio, "--speech-log", log],
            environment: PromptRun.environment())
        #expect(await process.waitForScreen(containing: "Verification code", deadline: .seconds(10)))
        process.type("123456")
        #expect(await process.waitForExit(deadline: .seconds(10)) == .exited(0))
        for path in [audio, log] {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect(attributes[.posixPermissions] as? Int == 0o640, "\(path)")
            #expect((attributes[.size] as? Int ?? 0) > 0, "\(path) was not written")
        }
    }

    /// A character device made by mknod in a temporary directory (never the real /dev/null), as
    /// both outputs: written as it is, its type and mode unchanged, the prompt works.
    @Test(.enabled(if: getuid() == 0, "mknod needs root (CI runs as root)"))
    func aDeviceAsTheLogAndTheAudioFileIsLeftAsItIs() async throws {
        let directory = NSTemporaryDirectory() + "/otc-e2e-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let device = directory + "/null"
        #expect(mknod(device, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0)
        chmod(device, 0o666)
        let process = try PseudoTerminalProcess(
            executable: PromptRun.binary, arguments: ["--audio-file", device, "--speech-log", device],
            environment: PromptRun.environment())
        #expect(await process.waitForScreen(containing: "Verification code", deadline: .seconds(10)))
        process.type("123456")
        #expect(await process.waitForExit(deadline: .seconds(10)) == .exited(0))
        #expect(process.standardOutput == "123456\n")
        var status = stat()
        #expect(lstat(device, &status) == 0)
        #expect(status.st_mode == S_IFCHR | 0o666)
        #expect(status.st_rdev == dev_t(1 << 8 | 3))
    }

    /// A FIFO nobody reads, as the log or the audio file: refused at once (64), never a hang with the
    /// terminal still echoing.
    @Test(arguments: ["--speech-log", "--audio-file"])
    func aFIFOWithoutAReaderIsRefusedAtOnce(option: String) async throws {
        let fifo = NSTemporaryDirectory() + "/otc-e2e-\(UUID().uuidString).fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let process = try PseudoTerminalProcess(
            executable: PromptRun.binary, arguments: ["--speech", "none", option, fifo],
            environment: PromptRun.environment())
        #expect(await process.waitForExit(deadline: .seconds(5)) == .exited(64))
        #expect(process.screen.contains("no program is reading"))
        #expect(sameAttributes(process.attributesAtStart, process.slaveAttributes()))
    }

    /// A FIFO whose reader stops reading: once its buffer is full, a line waits a moment for room, then
    /// logging stops with a notice; the prompt never blocks on it.
    @Test func aSpeechLogWhoseReaderStopsReadingNeverHoldsThePrompt() async throws {
        let fifo = NSTemporaryDirectory() + "/otc-e2e-\(UUID().uuidString).fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        // The reader: opened, its buffer shrunk to one page (F_SETPIPE_SZ), never read.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        #expect(reader >= 0)
        defer { close(reader) }
        _ = fcntl(reader, 1031, 4096)
        let process = try PseudoTerminalProcess(
            executable: PromptRun.binary, arguments: ["--speech", "none", "--speech-log", fifo],
            environment: PromptRun.environment())
        #expect(await process.waitForScreen(containing: "Verification code", deadline: .seconds(10)))
        process.type("12345" + String(repeating: "\u{7F}5", count: 60))
        #expect(
            await process.waitForScreen(containing: "cannot be written", deadline: .seconds(10)), "\(process.screen)")
        process.type("6")
        #expect(await process.waitForExit(deadline: .seconds(10)) == .exited(0))
        #expect(process.standardOutput == "123456\n")
    }

    @Test func aSpeechLogBehindASymbolicLinkIsRefused() async throws {
        let target = NSTemporaryDirectory() + "/otc-e2e-\(UUID().uuidString)-target"
        let link = NSTemporaryDirectory() + "/otc-e2e-\(UUID().uuidString)-link"
        defer { for path in [target, link] { try? FileManager.default.removeItem(atPath: path) } }
        #expect(FileManager.default.createFile(atPath: target, contents: Data()))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let process = try PseudoTerminalProcess(
            executable: PromptRun.binary, arguments: ["--speech", "none", "--speech-log", link],
            environment: PromptRun.environment())
        #expect(await process.waitForExit(deadline: .seconds(10)) == .exited(64))
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)).isEmpty)
        #expect(sameAttributes(process.attributesAtStart, process.slaveAttributes()))
    }

    @Test func theFieldIsLockedInMemoryAndCoreDumpsAreOff() async throws {
        let run = try await PromptRun([])
        let status = try String(contentsOfFile: "/proc/\(run.process.processID)/status", encoding: .utf8)
        let locked = status.split(separator: "\n").first { $0.hasPrefix("VmLck:") }
        let kilobytes = locked.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        // mlock is allowed as root and within RLIMIT_MEMLOCK (64 KiB or more on current systems).
        #expect(kilobytes > 0, "VmLck: \(locked ?? "absent")")
        // PR_SET_DUMPABLE 0 makes /proc/PID owned by root and hides what it could leak.
        let limits = try String(contentsOfFile: "/proc/\(run.process.processID)/limits", encoding: .utf8)
        let core = limits.split(separator: "\n").first { $0.hasPrefix("Max core file size") }
        #expect(core?.split(separator: " ", omittingEmptySubsequences: true).dropFirst(4).first == "0", "\(core ?? "")")
        run.type([0x03])
        #expect(await run.exit() == .exited(130))
    }

    @Test func tenMegabytePasteThenTypedDigitsStillCount() async throws {
        let run = try await PromptRun([])
        var paste = Array("\u{1b}[200~".utf8)
        paste += [UInt8](repeating: UInt8(ascii: "x"), count: 10_000_000)
        paste += Array("\u{1b}[201~".utf8)
        #expect(run.process.type(paste, deadline: .seconds(30)))
        #expect(await run.waitForEvent("reject", deadline: .seconds(20)))
        run.type("123456")
        #expect(await run.exit(deadline: .seconds(20)) == .exited(0))
        #expect(run.process.standardOutput == "123456\n")
    }

    @Test func garbageBytesChangeNothingAndNeverCrash() async throws {
        let run = try await PromptRun([])
        var random = SeededRandom(seed: 42)
        var garbage: [UInt8] = (0..<4000).map { _ in UInt8.random(in: 0...255, using: &random) }
        // Keep only bytes that cannot end the prompt or edit the field on their own.
        garbage = garbage.filter {
            ![0x03, 0x04, 0x0A, 0x0D, 0x15, 0x08, 0x7F, 0x1A, 0x1B].contains($0) && !(0x30...0x39).contains($0)
        }
        run.type(garbage)
        run.type("\u{1b}[1;5")  // a truncated sequence, completed by nothing
        run.type("A")
        run.type("123456")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "123456\n")
        #expect(run.terminalRestored)
    }

    @Test func closedStdoutGivesOneClearLineAndAFailure() async throws {
        let process = try PseudoTerminalProcess(
            executable: "/bin/sh", arguments: ["-c", "exec \"$0\" --speech none >&-", PromptRun.binary],
            environment: PromptRun.environment())
        #expect(await process.waitForScreen(containing: "Verification code", deadline: .seconds(10)))
        process.type("123456")
        #expect(await process.waitForExit(deadline: .seconds(10)) == .exited(74))
        #expect(process.screen.contains("otc-prompt: "))
        #expect(!visibleText(process.screen).contains("123456\n"))
        #expect(sameAttributes(process.attributesAtStart, process.slaveAttributes()))
    }
}
