import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// The pinentry never outlives gpg-agent: a fake agent speaks Assuan on pipes, opens a dialog on a
/// pty of its own, then closes its ends of the pipes as a killed or restarted agent would.
@Suite(.runsPrograms, .serialized) struct PinentryCallerGoneEndToEndTests {
    /// The dialogs, as the Assuan lines that open them and the keys that bring them to the point of the hang-up.
    enum Dialog: String, CaseIterable {
        case getpin, confirm, message, repeatField

        var lines: String {
            switch self {
            case .getpin: "SETPROMPT Passphrase:\nGETPIN\n"
            case .confirm: "SETDESC Allow this key?\nCONFIRM\n"
            case .message: "SETDESC Card removed\nMESSAGE\n"
            case .repeatField: "SETPROMPT Passphrase:\nSETREPEAT Repeat:\nGETPIN\n"
            }
        }

        /// What the screen shows once the dialog (for SETREPEAT, its second field) is waiting.
        var shown: String {
            switch self {
            case .getpin: "Passphrase"
            case .confirm: "Allow this key"
            case .message: "Card removed"
            case .repeatField: "Repeat"
            }
        }
    }

    /// Which of its ends the agent closes.
    enum HangUp: String, CaseIterable {
        /// Killed: both.
        case both
        /// The pinentry's stdin at end of file only.
        case input
        /// The reader of the pinentry's stdout gone only.
        case output
    }

    @Test(arguments: Dialog.allCases, [HangUp.both])
    func theAgentsHangUpEndsTheDialogRestoresTheTerminalAndLeavesTheNextLineAlone(dialog: Dialog, hangUp: HangUp)
        throws
    {
        try run(dialog, hangUp)
    }

    @Test(arguments: [Dialog.getpin], [HangUp.input, HangUp.output])
    func eitherEndAloneIsEnough(dialog: Dialog, hangUp: HangUp) async throws {
        try run(dialog, hangUp)
    }

    /// The dialog's terminal is not the pinentry's controlling terminal: a stop sent to its process group
    /// would stop gpg-agent's with it, with nobody to continue either.
    @Test func controlZInADialogIsRefusedWithAWordAndTheAnswerStillReachesTheAgent() async throws {
        let tty = try PseudoTerminal()
        let agent = try FakeAgent(arguments: ["--pinentry", "--speech", "text"], environment: PromptRun.environment())
        defer { agent.end() }
        agent.send("OPTION ttyname=\(tty.slaveName)\nSETPROMPT Passphrase:\nGETPIN\n")
        #expect(screen(of: tty, contains: "Passphrase"))
        tty.typeOnMaster(Array("sec".utf8))
        #expect(screen(of: tty, contains: "3 entered"))
        tty.typeOnMaster([0x1A])
        #expect(screen(of: tty, contains: "cannot be suspended while gpg-agent waits"))
        #expect(!agent.isStopped)
        tty.typeOnMaster(Array("ret\r".utf8))
        let replies = agent.replies(until: "\nOK\n", after: "D ")
        #expect(replies.contains("\nD secret\nOK\n"), "replies: \(replies)")
        agent.send("BYE\n")
    }

    private func run(_ dialog: Dialog, _ hangUp: HangUp) throws {
        let tty = try PseudoTerminal()
        let before = tty.slaveAttributes().bytes
        let agent = try FakeAgent(arguments: ["--pinentry", "--speech", "text"], environment: PromptRun.environment())
        defer { agent.end() }
        agent.send("OPTION ttyname=\(tty.slaveName)\n" + dialog.lines)
        if dialog == .repeatField {
            #expect(screen(of: tty, contains: "Passphrase"))
            tty.typeOnMaster(Array("first\r".utf8))
        }
        #expect(screen(of: tty, contains: dialog.shown), "the dialog never appeared")
        if dialog == .getpin || dialog == .repeatField {
            tty.typeOnMaster(Array("sec".utf8))
            #expect(screen(of: tty, contains: "3 entered"), "the typing was never read")
        }
        #expect(tty.slaveAttributes().bytes != before, "the dialog is in raw mode")

        let clock = ContinuousClock()
        let hungUp = clock.now
        agent.hangUp(input: hangUp != .output, output: hangUp != .input)
        var restored: Duration?
        var exited: (Duration, Int32)?
        while clock.now - hungUp < .seconds(10) && (restored == nil || exited == nil) {
            if restored == nil && tty.slaveAttributes().bytes == before { restored = clock.now - hungUp }
            if exited == nil, let status = agent.exitStatus() { exited = (clock.now - hungUp, status) }
            usleep(500)
        }
        print(
            "caller gone (\(dialog.rawValue), \(hangUp.rawValue)): terminal restored after \(restored.map { "\($0)" } ?? "never"), exited after \(exited.map { "\($0.0)" } ?? "never")"
        )
        // Restored and ended within the bound (how soon is a figure for make bench, which load cannot break).
        #expect(restored != nil, "not restored")
        #expect(exited != nil, "not ended")
        #expect(exited?.1 == 129, "ends as a hang-up")
        // The next line is the next reader's, whole: nobody took it.
        tty.typeOnMaster(Array("ls -la\r".utf8))
        #expect(readLine(fromSlaveOf: tty) == "ls -la\n")
    }

    /// Whether the screen, from what was last read of it on, comes to show `text` within 10 s.
    private func screen(of tty: PseudoTerminal, contains text: String) -> Bool {
        let bytes = tty.readMaster(
            until: { String(decoding: $0, as: UTF8.self).contains(text) }, deadline: .seconds(10))
        return String(decoding: bytes, as: UTF8.self).contains(text)
    }

    /// A line read on the slave side (cooked, as the shell's next read would be), within a second.
    private func readLine(fromSlaveOf tty: PseudoTerminal) -> String? {
        var descriptor = pollfd(fd: tty.slave, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 1000) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(tty.slave, &buffer, buffer.count)
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
    }
}

/// gpg-agent as far as the pinentry can tell: its stdin and stdout are pipes to the test, which
/// writes Assuan lines and may close either end. Reads nothing back (the pipe is large enough).
final class FakeAgent {
    let pid: pid_t
    private var toPinentry: Int32
    private var fromPinentry: Int32
    private var status: Int32?

    init(arguments: [String], environment: [String: String]) throws {
        var input: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        guard pipe(&input) == 0, pipe(&output) == 0 else { throw SpawnFailed(call: "pipe") }
        for end in input + output { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([PromptRun.binary] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        // A process group of its own, not the test runner's: a pinentry that sent itself SIGTSTP stops alone.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        let result = posix_spawn(&pid, PromptRun.binary, &actions, &attributes, argv, envp)
        close(input[0])
        close(output[1])
        guard result == 0 else { throw SpawnFailed(call: "posix_spawn") }
        self.pid = pid
        toPinentry = input[1]
        fromPinentry = output[0]
    }

    func send(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { write(toPinentry, $0.baseAddress, $0.count) }
    }

    /// Closes the agent's end of the pinentry's stdin, of its stdout, or both.
    func hangUp(input: Bool, output: Bool) {
        if input && toPinentry >= 0 {
            close(toPinentry)
            toPinentry = -1
        }
        if output && fromPinentry >= 0 {
            close(fromPinentry)
            fromPinentry = -1
        }
    }

    /// Whether the pinentry is stopped now (it is continued again if so, for the cleanup).
    var isStopped: Bool {
        var raw: Int32 = 0
        guard waitpid(pid, &raw, WNOHANG | WUNTRACED) == pid, raw & 0xff == 0x7f else { return false }
        kill(pid, SIGCONT)
        return true
    }

    /// What the pinentry has written, read until it holds `text` after `marker` (bounded: 10 s).
    func replies(until text: String, after marker: String) -> String {
        let clock = ContinuousClock()
        let end = clock.now + .seconds(10)
        while clock.now < end {
            if let start = received.range(of: marker), received[start.lowerBound...].contains(text) { break }
            var descriptor = pollfd(fd: fromPinentry, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(fromPinentry, &buffer, buffer.count)
            if count <= 0 { break }
            received += String(decoding: buffer[..<count], as: UTF8.self)
        }
        return received
    }
    private var received = ""

    /// The exit status once the pinentry has ended, without waiting.
    func exitStatus() -> Int32? {
        if let status { return status }
        var raw: Int32 = 0
        guard waitpid(pid, &raw, WNOHANG) == pid else { return nil }
        status = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        return status
    }

    /// Ends the pinentry if it is still there, and closes the pipes.
    func end() {
        hangUp(input: true, output: true)
        if exitStatus() == nil {
            kill(pid, SIGKILL)
            var raw: Int32 = 0
            _ = waitpid(pid, &raw, 0)
        }
    }
}

struct SpawnFailed: Error {
    let call: String
}
