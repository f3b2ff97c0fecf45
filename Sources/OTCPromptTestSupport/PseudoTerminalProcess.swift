// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// How a child ended.
public enum ExitStatus: Equatable, Sendable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)

    /// Decodes a waitpid status; nil for a stop or continue report.
    init?(waitStatus status: Int32) {
        let low = status & 0x7f
        if low == 0 {
            self = .exited((status >> 8) & 0xff)
        } else if low != 0x7f {
            self = .signaled(low)
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .exited(let code): return "exited(\(code))"
        case .signaled(let signal): return "signaled(\(signal))"
        }
    }
}

/// A built executable running on a fresh pseudo-terminal, typed at and watched like a user would.
///
/// The child is its own session leader with a clean signal mask and default dispositions; it
/// opens the pty slave by path as stdin, which makes it its controlling terminal (/dev/tty works).
/// stdout is a separate pipe, so a test sees exactly what a script capturing `$(…)` would get.
/// The harness drains the pty and the pipes whenever it waits, so the child never blocks on output.
/// Every wait has its own deadline. Note: the child's process group is orphaned (its parent is in
/// another session), so the kernel discards SIGTSTP/SIGTTIN/SIGTTOU stops for it.
public final class PseudoTerminalProcess {
    /// Where the child's stderr goes.
    public enum StandardError: Sendable { case terminal, pipe }
    /// Where the child's stdin comes from; with `.nullDevice` the pty is still its controlling
    /// terminal (/dev/tty works), as for `echo 1 | otc-prompt`.
    public enum StandardInput: Sendable { case terminal, nullDevice }

    /// Runs the program as a job of `bash -m`, so Ctrl-Z really stops it (its process group is not
    /// orphaned). When the job stops, bash writes "[stopped]" on the terminal and waits for a line (type "\r"), then
    /// `fg`s it. The exit status is bash's: a job killed by signal N gives `.exited(128+N)`.
    static let jobControlScript = """
        "$0" "$@"; s=$?
        while [ "$s" -eq 148 ]; do printf '[stopped]\\n' >/dev/tty; read -r _ </dev/tty; fg >/dev/null; s=$?; done
        exit "$s"
        """

    /// The pty (nil when started with `terminal: false`).
    public let terminal: PseudoTerminal?
    /// The pty's attributes just before the child started, to compare with `slaveAttributes()`
    /// once it has ended ("the terminal is restored exactly").
    public let attributesAtStart: termios
    /// The child's process id.
    public let processID: pid_t

    private var standardOutputPipe: Int32
    private var standardErrorPipe: Int32
    var screenBytes: [UInt8] = []
    var standardOutputBytes: [UInt8] = []
    private var standardErrorBytes: [UInt8] = []
    var exitStatus: ExitStatus?

    /// Starts `executable` with `arguments` (argv[1...]) and exactly `environment`.
    ///
    /// - Parameters:
    ///   - terminal: false gives the child no terminal at all: stdin /dev/null, its own session,
    ///     stderr a pipe (to test "no terminal" handling).
    ///   - standardInput: `.terminal` (default) or `.nullDevice` (the pty stays the controlling terminal).
    ///   - standardError: `.terminal` (default) or `.pipe`, read with `standardErrorText`.
    ///   - jobControl: run under `bash -m` so SIGTSTP stops the child for real (see `jobControlScript`).
    public init(
        executable: String, arguments: [String] = [], environment: [String: String] = [:],
        terminal withTerminal: Bool = true, standardInput: StandardInput = .terminal,
        standardError: StandardError = .terminal, jobControl: Bool = false,
        columns: Int = 80, rows: Int = 24
    ) throws(PseudoTerminalError) {
        let pty = withTerminal ? try PseudoTerminal(columns: columns, rows: rows) : nil
        attributesAtStart = pty?.slaveAttributes() ?? termios()
        let outputPipe = try Self.makePipe()
        let errorPipe = (standardError == .pipe || !withTerminal) ? try Self.makePipe() : nil
        let program = jobControl ? "/bin/bash" : executable
        let programArguments = jobControl ? ["-m", "-c", Self.jobControlScript, executable] + arguments : arguments
        let spawned = Self.spawn(
            executable: program, arguments: programArguments, environment: environment,
            terminalPath: pty?.slaveName, standardInputIsTerminal: standardInput == .terminal,
            standardOutput: outputPipe.write, standardError: errorPipe?.write)
        close(outputPipe.write)
        if let errorPipe { close(errorPipe.write) }
        guard case .success(let pid) = spawned else {
            close(outputPipe.read)
            if let errorPipe { close(errorPipe.read) }
            if case .failure(let error) = spawned { throw error }
            fatalError("unreachable")
        }
        self.terminal = pty
        self.processID = pid
        self.standardOutputPipe = outputPipe.read
        self.standardErrorPipe = errorPipe?.read ?? -1
    }

    deinit {
        if exitStatus == nil {
            kill(-processID, SIGKILL)  // the child leads its own process group: take its children too
            kill(processID, SIGKILL)
            var status: Int32 = 0
            while waitpid(processID, &status, 0) == -1 && errno == EINTR {}
        }
        if standardOutputPipe >= 0 { close(standardOutputPipe) }
        if standardErrorPipe >= 0 { close(standardErrorPipe) }
    }

    // MARK: Typing

    /// Types `bytes` at the terminal (writes them to the pty master), reading the screen meanwhile so
    /// a large paste cannot deadlock. False if the deadline passed first.
    @discardableResult
    public func type(_ bytes: [UInt8], deadline: Duration = .seconds(10)) -> Bool {
        guard let terminal else { return false }
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: deadline)
        var written = 0
        while written < bytes.count {
            let left = clock.now.duration(to: end)
            if left <= .zero { return false }
            var descriptors = pollSet(
                including: pollfd(fd: terminal.master, events: Int16(POLLOUT | POLLIN), revents: 0))
            _ = poll(&descriptors, nfds_t(descriptors.count), min(pollMilliseconds(left), 50))
            drain(descriptors)
            if descriptors[0].revents & Int16(POLLOUT) != 0 {
                let count = bytes[written...].withUnsafeBytes {
                    write(terminal.master, $0.baseAddress, min($0.count, 4096))
                }
                if count > 0 { written += count }
            }
        }
        return true
    }

    /// Types `text` as UTF-8.
    @discardableResult
    public func type(_ text: String, deadline: Duration = .seconds(10)) -> Bool {
        type(Array(text.utf8), deadline: deadline)
    }

    /// Sends `signal` to the child.
    public func sendSignal(_ signal: Int32) {
        kill(processID, signal)
    }

    /// Sets the window size; the kernel sends the child SIGWINCH.
    public func resize(columns: Int, rows: Int) {
        terminal?.resize(columns: columns, rows: rows)
    }

    /// The pty slave's attributes now (see `PseudoTerminal.slaveAttributes`).
    public func slaveAttributes() -> termios {
        terminal?.slaveAttributes() ?? termios()
    }

    // MARK: Watching

    /// Everything the child wrote to the terminal so far, as text (invalid UTF-8 repaired).
    public var screen: String {
        pumpUntilQuiet()
        return String(decoding: screenBytes, as: UTF8.self)
    }

    /// The raw bytes written to the terminal so far.
    public var screenBytesSoFar: [UInt8] {
        pumpUntilQuiet()
        return screenBytes
    }

    /// Waits until the screen contains `text`; false if `deadline` passes first.
    public func waitForScreen(containing text: String, deadline: Duration) -> Bool {
        waitUntil(deadline: deadline) { String(decoding: $0.screenBytes, as: UTF8.self).contains(text) }
    }

    /// Waits until stdout contains `text`; false if `deadline` passes first.
    public func waitForStandardOutput(containing text: String, deadline: Duration) -> Bool {
        waitUntil(deadline: deadline) { String(decoding: $0.standardOutputBytes, as: UTF8.self).contains(text) }
    }

    /// Waits until `condition` holds (the speech log, a file, a server's state), reading the terminal
    /// meanwhile so the child never blocks on a full one; false if `deadline` passes first.
    public func wait(deadline: Duration, until condition: (PseudoTerminalProcess) -> Bool) -> Bool {
        waitUntil(deadline: deadline, condition)
    }

    /// Whether the child has ended, without waiting (reaps it if so).
    public var hasExited: Bool { reap() != nil }

    /// Waits for the child to end; nil if `deadline` passes first (the child keeps running).
    public func waitForExit(deadline: Duration) -> ExitStatus? {
        _ = waitUntil(deadline: deadline) { $0.reap() != nil }
        if exitStatus != nil { pumpUntilQuiet() }
        return exitStatus
    }

    /// What the child wrote to stdout; complete once it has exited (read after `waitForExit`).
    public var standardOutput: String {
        if exitStatus != nil { drainToEnd() } else { pumpUntilQuiet() }
        return String(decoding: standardOutputBytes, as: UTF8.self)
    }

    /// What the child wrote to stdout, byte for byte (a Latin-1 answer is not UTF-8).
    public var standardOutputData: [UInt8] {
        if exitStatus != nil { drainToEnd() } else { pumpUntilQuiet() }
        return standardOutputBytes
    }

    /// What the child wrote to stderr when it is a pipe.
    public var standardErrorText: String {
        if exitStatus != nil { drainToEnd() } else { pumpUntilQuiet() }
        return String(decoding: standardErrorBytes, as: UTF8.self)
    }

    /// Waits until the child is stopped (WUNTRACED); returns the stop signal, nil on deadline or exit.
    public func waitForStop(deadline: Duration) -> Int32? {
        var stopSignal: Int32?
        _ = waitUntil(deadline: deadline) { process in
            stopSignal = process.lookForStop()
            return stopSignal != nil || process.exitStatus != nil
        }
        return stopSignal
    }

    /// One look (WNOHANG | WUNTRACED): the stop signal if the child is stopped; an exit is kept in `exitStatus`.
    func lookForStop() -> Int32? {
        var status: Int32 = 0
        guard exitStatus == nil, waitpid(processID, &status, WNOHANG | WUNTRACED) > 0 else { return nil }
        if (status & 0xff) == 0x7f { return (status >> 8) & 0xff }
        exitStatus = ExitStatus(waitStatus: status)
        return nil
    }

    // MARK: Plumbing

    private func waitUntil(deadline: Duration, _ done: (PseudoTerminalProcess) -> Bool) -> Bool {
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: deadline)
        while true {
            if done(self) { return true }
            let left = clock.now.duration(to: end)
            if left <= .zero { return false }
            pump(for: min(left, .milliseconds(20)))
        }
    }

    /// Reaps the child if it has ended (WNOHANG).
    func reap() -> ExitStatus? {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        if waitpid(processID, &status, WNOHANG) == processID {
            exitStatus = ExitStatus(waitStatus: status)
        }
        return exitStatus
    }

    private func pollSet(including first: pollfd? = nil) -> [pollfd] {
        var descriptors: [pollfd] = []
        if let first { descriptors.append(first) }
        if let terminal, first?.fd != terminal.master {
            descriptors.append(pollfd(fd: terminal.master, events: Int16(POLLIN), revents: 0))
        }
        for pipe in [standardOutputPipe, standardErrorPipe] where pipe >= 0 {
            descriptors.append(pollfd(fd: pipe, events: Int16(POLLIN), revents: 0))
        }
        return descriptors
    }

    /// Waits at most `duration` for output, then reads whatever is ready; true if anything was.
    @discardableResult
    private func pump(for duration: Duration) -> Bool {
        var descriptors = pollSet()
        guard !descriptors.isEmpty else { return false }
        _ = poll(&descriptors, nfds_t(descriptors.count), pollMilliseconds(duration))
        return drain(descriptors)
    }

    /// Reads until nothing more is ready right now (bounded, in case the child never stops writing).
    func pumpUntilQuiet() {
        var rounds = 0
        while rounds < 1024, pump(for: .zero) { rounds += 1 }
    }

    @discardableResult
    private func drain(_ descriptors: [pollfd]) -> Bool {
        var readSomething = false
        for descriptor in descriptors where descriptor.revents & Int16(POLLIN | POLLHUP) != 0 {
            let bytes = readAvailable(from: descriptor.fd)
            if !bytes.isEmpty { readSomething = true }
            if descriptor.fd == terminal?.master {
                screenBytes += bytes
            } else if descriptor.fd == standardOutputPipe {
                if bytes.isEmpty { closePipe(&standardOutputPipe) } else { standardOutputBytes += bytes }
            } else if descriptor.fd == standardErrorPipe {
                if bytes.isEmpty { closePipe(&standardErrorPipe) } else { standardErrorBytes += bytes }
            }
        }
        return readSomething
    }

    private func closePipe(_ descriptor: inout Int32) {
        close(descriptor)
        descriptor = -1
    }

    /// After exit: reads the pipes to end of file (bounded: a grandchild holding them gets 1 s).
    private func drainToEnd() {
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: .seconds(1))
        while standardOutputPipe >= 0 || standardErrorPipe >= 0, clock.now < end {
            pump(for: .milliseconds(20))
        }
        pump(for: .zero)
    }
}
