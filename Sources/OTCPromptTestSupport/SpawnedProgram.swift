import Foundation
import Glibc

/// A program a test started, known by its own pid: its input written at the start, its output and error read apart
/// on a thread of their own as they come (a chatty child never blocks on a full pipe), its end learnt by `waitpid`.
///
/// Not Foundation's Process: it learns of a child's end from SIGCHLD, which a test that handles SIGCHLD itself (a
/// SignalWatcher's) takes from it, and then `waitUntilExit` waits for ever and `isRunning` stays true (a CI run hung
/// 25 minutes so). `waitpid` on the child's own pid hears it whatever becomes of the signal.
public final class SpawnedProgram: @unchecked Sendable {
    public let processID: pid_t
    public let description: String
    private let lock = NSLock()
    private var outputBytes: [UInt8] = []
    private var errorBytes: [UInt8] = []
    private var readsDone = false
    private var waitStatus: Int32?

    /// Starts `executable` with `arguments` and exactly `environment`, `input` written to its stdin, then closed.
    public init(
        _ executable: String, _ arguments: [String], input: String = "", environment: [String: String]
    ) throws {
        description = "\(executable) \(arguments)"
        let output = try PseudoTerminalProcess.makePipe()
        let errors = try PseudoTerminalProcess.makePipe()
        var inputEnds: [Int32] = [-1, -1]
        guard pipe(&inputEnds) == 0 else { throw PseudoTerminalError("pipe") }
        for end in inputEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let spawned = PseudoTerminalProcess.spawn(
            executable: executable, arguments: arguments, environment: environment, terminalPath: nil,
            standardInputIsTerminal: false, standardOutput: output.write, standardError: errors.write,
            standardInput: inputEnds[0])
        for end in [output.write, errors.write, inputEnds[0]] { close(end) }
        guard case .success(let pid) = spawned else {
            for end in [output.read, errors.read, inputEnds[1]] { close(end) }
            if case .failure(let error) = spawned { throw error }
            fatalError("unreachable")
        }
        processID = pid
        // Written on the reading thread's side of the start: input larger than a pipe would otherwise wait here.
        let bytes = Array(input.utf8)
        let inputEnd = inputEnds[1]
        Thread.detachNewThread { [self] in
            var written = 0
            while written < bytes.count {
                let count = bytes[written...].withUnsafeBytes { write(inputEnd, $0.baseAddress, $0.count) }
                if count > 0 { written += count } else if count < 0 && errno == EINTR { continue } else { break }
            }
            close(inputEnd)
            collect(output: output.read, errors: errors.read)
        }
    }

    deinit {
        if waitStatus == nil {
            kill(processID, SIGKILL)
            var status: Int32 = 0
            while waitpid(processID, &status, 0) == -1 && errno == EINTR {}
        }
    }

    /// Reads both pipes (non-blocking ends) until each has ended, then closes them.
    private func collect(output: Int32, errors: Int32) {
        var open = [output, errors]
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty {
            var descriptors = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&descriptors, nfds_t(descriptors.count), 1000) >= 0 || errno == EINTR else { break }
            for descriptor in descriptors where descriptor.revents != 0 {
                let count = read(descriptor.fd, &buffer, buffer.count)
                if count > 0 {
                    lock.withLock {
                        if descriptor.fd == output {
                            outputBytes += buffer[..<count]
                        } else {
                            errorBytes += buffer[..<count]
                        }
                    }
                } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                    close(descriptor.fd)
                    open.removeAll { $0 == descriptor.fd }
                }
            }
        }
        lock.withLock { readsDone = true }
    }

    /// Whether it still runs; reaps it when it has ended.
    public var isRunning: Bool {
        lock.withLock {
            guard waitStatus == nil else { return false }
            var status: Int32 = 0
            guard waitpid(processID, &status, WNOHANG) == processID else { return true }
            waitStatus = status
            return false
        }
    }

    /// Its exit status, or the signal that ended it (as Foundation's `terminationStatus`); nil while it runs.
    public var terminationStatus: Int32? {
        guard !isRunning, let status = lock.withLock({ waitStatus }) else { return nil }
        return exitStatus(status)
    }

    /// Waits until it ends or `deadline` passes; its status (`terminationStatus`), nil on the deadline.
    public func waitForExit(deadline: Duration) -> Int32? {
        let clock = ContinuousClock()
        let end = clock.now + deadline
        while isRunning && clock.now < end { usleep(10_000) }
        return terminationStatus
    }

    /// The same, suspending the task between looks so that its thread runs other tests meanwhile.
    public func waitForExit(deadline: Duration) async -> Int32? {
        let clock = ContinuousClock()
        let end = clock.now + deadline
        while isRunning && clock.now < end { try? await Task.sleep(for: .milliseconds(10)) }
        return terminationStatus
    }

    /// Sends `signal` (SIGTERM by default) while it runs.
    public func terminate(_ signal: Int32 = SIGTERM) {
        if isRunning { kill(processID, signal) }
    }

    /// What it wrote so far; once it has ended, all of it after `waitForOutput`.
    public var output: String { lock.withLock { String(decoding: outputBytes, as: UTF8.self) } }
    public var errors: String { lock.withLock { String(decoding: errorBytes, as: UTF8.self) } }

    /// Waits (at most `deadline`) until both pipes have ended: every byte it (and any child holding them) wrote is in.
    @discardableResult
    public func waitForOutput(deadline: Duration = .seconds(5)) -> Bool {
        let clock = ContinuousClock()
        let end = clock.now + deadline
        while !lock.withLock({ readsDone }) {
            if clock.now >= end { return false }
            usleep(5_000)
        }
        return true
    }
}

/// A wait status as a shell shows it: the exit status, or the number of the signal that ended the process.
public func exitStatus(_ waitStatus: Int32) -> Int32 {
    waitStatus & 0x7f == 0 ? (waitStatus >> 8) & 0xff : waitStatus & 0x7f
}
