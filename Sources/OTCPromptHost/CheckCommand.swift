import OTCPromptCore

#if canImport(Glibc)
    import Glibc
    import OTCPromptSystem
#elseif canImport(Musl)
    import Musl
#endif

/// A `--check` command running beside the prompt: `/bin/sh -c COMMAND` with the code on its standard input.
///
/// The code never goes in argv or the environment, which other users can read in `ps`. The command's stdout goes
/// to /dev/null, because our stdout is reserved for the code; its stderr comes back through `descriptor` so the
/// first line can be announced. It runs in its own process group so a hung check is killed whole.
///
/// Nothing here blocks: the prompt loop polls `descriptor` beside the terminal, with a timeout (it needs one anyway
/// for the "checking" announcement and `--check-timeout`), and calls `poll()` on each wake-up.
public final class CheckCommand {
    /// The shell's process id, which is also the process group id of the check.
    public let processID: pid_t
    private var errorFD: Int32
    /// The write end of a pipe nobody writes to: after stderr's end of file, `descriptor` is made this pipe's read
    /// end, so it stays a valid descriptor that is never ready and the loop does not spin.
    private var idleWriteFD: Int32 = -1
    private var errorOpen = true
    private var errorLine = CheckErrorLine()
    private var result: CheckVerdict?

    /// The status reported when the command's real one could not be read (it was reaped elsewhere).
    public static let unknownStatus: Int32 = -1

    /// How long `kill()` waits after SIGTERM before SIGKILL.
    public static let killGrace: Duration = .milliseconds(300)

    /// Pollable (POLLIN): readable when the command writes to stderr or closes it, which it does when it exits.
    public var descriptor: Int32 { errorFD }

    /// The first non-blank line the command wrote to stderr (at most 200 bytes, control characters removed).
    public var firstErrorLine: String? { errorLine.line }

    private init(processID: pid_t, errorFD: Int32) {
        self.processID = processID
        self.errorFD = errorFD
    }

    deinit {
        if result == nil { kill() }
        close(errorFD)
        if idleWriteFD >= 0 { close(idleWriteFD) }
    }

    /// Starts `/bin/sh -c command` with `input` and a newline on its standard input.
    ///
    /// SIGPIPE is ignored in this process from now on, so a command that exits without reading its input makes
    /// the write fail with EPIPE instead of killing the prompt; the command itself gets default signal handling.
    /// - Parameter environment: the command's environment; nil passes ours.
    /// The corresponding C function is `posix_spawn`.
    public static func start(command: String, input: String, environment: [String: String]? = nil)
        throws(HostError) -> CheckCommand
    {
        prepareSignals()
        let inputPipe = try makePipe()
        let errorPipe: (read: Int32, write: Int32)
        do { errorPipe = try makePipe() } catch {
            close(inputPipe.read)
            close(inputPipe.write)
            throw error
        }

        let spawned = spawnShell(
            command: command, stdin: inputPipe.read, stderr: errorPipe.write, environment: environment)
        close(inputPipe.read)
        close(errorPipe.write)
        let processID: pid_t
        switch spawned {
        case .success(let pid): processID = pid
        case .failure(let error):
            close(inputPipe.write)
            close(errorPipe.read)
            throw error
        }

        _ = fcntl(errorPipe.read, F_SETFL, fcntl(errorPipe.read, F_GETFL) | O_NONBLOCK)
        let check = CheckCommand(processID: processID, errorFD: errorPipe.read)
        feed(Array(input.utf8) + [UInt8(ascii: "\n")], to: inputPipe.write)
        return check
    }

    /// The result once the command has ended (it is reaped then), nil while it runs. Never blocks.
    /// The corresponding C function is `waitpid`.
    public func poll() -> CheckVerdict? {
        if let result { return result }
        drainErrors()
        var status: Int32 = 0
        let reaped = SystemCall.retrying("waitpid") { waitpid(processID, &status, WNOHANG) }
        if reaped < 0, Errno.current == Errno(rawValue: ECHILD) {
            // Reaped by someone else (a SIGCHLD handler with waitpid(-1)): the status is lost, and an unknown
            // status must never accept a code.
            result = .exited(Self.unknownStatus)
            return result
        }
        guard reaped == processID else { return nil }
        drainErrors()
        result = Self.result(ofWaitStatus: status)
        return result
    }

    /// Waits for the verdict, at most `timeout`; a check still running then is killed and nil returned.
    /// For `--stdin`, where nobody is typing and waiting is all there is to do.
    /// The corresponding C function is `waitpid`.
    public func wait(timeout: Duration) -> CheckVerdict? {
        var verdict: CheckVerdict?
        _ = Polling.until(within: timeout, every: .milliseconds(5)) {
            verdict = poll()
            return verdict != nil
        }
        if let verdict { return verdict }
        kill()
        return nil
    }

    /// Ends a check that takes too long: SIGTERM to its group, SIGKILL after `killGrace`, then reaps it.
    /// The corresponding C functions are `kill` and `waitpid`.
    public func kill() {
        guard result == nil else { return }
        _ = Glibc.kill(-processID, SIGTERM)
        // Wait without reaping: while the leader is a zombie its group id cannot be reused, so the SIGKILL
        // below reaches only what is left of this check's group.
        _ = Polling.until(within: Self.killGrace, every: .milliseconds(10)) { leaderHasExited() }
        _ = Glibc.kill(-processID, SIGKILL)
        var status: Int32 = 0
        let reaped = SystemCall.retrying("waitpid") { waitpid(processID, &status, 0) }
        drainErrors()
        result = reaped == processID ? Self.result(ofWaitStatus: status) : .exited(Self.unknownStatus)
    }

    /// Whether the shell has ended, without reaping it. The corresponding C function is `waitid` (WNOWAIT).
    private func leaderHasExited() -> Bool {
        var info = siginfo_t()  // Zeroed: with WNOHANG, a pid of 0 afterwards means "still running".
        guard waitid(P_PID, id_t(processID), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return true }
        return info._sifields._sigchld.si_pid != 0
    }

    /// The core's verdict on a `waitpid` status: an exit status, or the signal that killed it.
    static func result(ofWaitStatus status: Int32) -> CheckVerdict {
        switch ProcessEnd(waitStatus: status) {
        case .exited(let code): .exited(code)
        case .killed(let signal): .killed(by: signal)
        }
    }

    /// Reads what stderr has now (bounded per call, so a flood cannot starve the prompt loop).
    private func drainErrors() {
        guard errorOpen else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<16 {
            let count = buffer.withUnsafeMutableBytes { raw in
                SystemCall.retrying("read") { read(errorFD, raw.baseAddress, raw.count) }
            }
            if count > 0 {
                errorLine.append(buffer[0..<count])
            } else if count == 0 {
                endOfErrors()
                return
            } else {
                return  // EAGAIN: nothing more for now.
            }
        }
    }

    private func endOfErrors() {
        errorOpen = false
        guard let idle = try? Self.makePipe() else { return }
        if dup2(idle.read, errorFD) >= 0 { _ = fcntl(errorFD, F_SETFD, FD_CLOEXEC) }
        close(idle.read)
        idleWriteFD = idle.write
    }
}
