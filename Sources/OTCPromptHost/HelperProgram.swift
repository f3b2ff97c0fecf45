// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptSystem

/// A short-lived helper program the prompt waits for, with a deadline: `speech-dispatcher --spawn`,
/// which starts the user's speech server (as libspeechd's autospawn does) and exits once it listens; and, for
/// `--doctor`, a program asked one thing (tmux's `escape-time`).
public enum HelperProgram {
    /// Runs `program` (looked up in PATH) with `arguments`, its standard streams on /dev/null, and
    /// waits at most `timeout` for it to exit.
    /// - Returns: its exit status (a signal's number plus 128 when it was killed).
    /// - Throws: `.program` when it cannot be started or has not ended by the deadline (it is left
    ///   running: a slow server start is not ours to kill).
    /// The corresponding C functions are `posix_spawnp` and `waitpid`.
    public static func run(_ program: String, _ arguments: [String], timeout: Duration) throws(HostError) -> Int32 {
        let deadline = MonotonicInstant.now + timeout
        let pid = try spawn(program, arguments, standardOutput: nil)
        guard let status = try reap(pid, program: program, until: deadline) else {
            throw .program(path: program, reason: "it did not finish within \(timeout)")
        }
        return status
    }

    /// Runs `program` (looked up in PATH) with `arguments`, stdin and stderr on /dev/null, and returns what it
    /// wrote on stdout (at most 4 KiB) when it exits with status 0 within `timeout`; nil otherwise. A program
    /// still running at the deadline is killed: it was only asked a question.
    /// The corresponding C functions are `pipe`, `posix_spawnp`, `poll`, `read`, `kill` and `waitpid`.
    public static func output(_ program: String, _ arguments: [String], timeout: Duration) -> String? {
        let deadline = MonotonicInstant.now + timeout
        guard let ends = try? SystemCalls.wakeUpPipe() else { return nil }
        // The child's end blocks, as a program's stdout does.
        _ = fcntl(ends.write, F_SETFL, fcntl(ends.write, F_GETFL) & ~O_NONBLOCK)
        let pid: pid_t
        do {
            pid = try spawn(program, arguments, standardOutput: ends.write)
        } catch {
            close(ends.read)
            close(ends.write)
            return nil
        }
        close(ends.write)
        defer { close(ends.read) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while bytes.count < 4096 {
            let left = MonotonicInstant.now.duration(to: deadline)
            guard left > .zero else { break }
            var readable = pollfd(fd: ends.read, events: Int16(POLLIN), revents: 0)
            guard SystemCall.retrying("poll", { poll(&readable, 1, left.pollTimeout) }) > 0 else { break }
            let count = buffer.withUnsafeMutableBytes { raw in
                SystemCall.retrying("read") { Glibc.read(ends.read, raw.baseAddress, raw.count) }
            }
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        let status = try? reap(pid, program: program, until: deadline)
        guard let status else {
            _ = Glibc.kill(pid, SIGKILL)
            var ignored: Int32 = 0
            _ = SystemCall.retrying("waitpid") { waitpid(pid, &ignored, 0) }
            return nil
        }
        return status == 0 ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// Starts `program` with stdin and stderr on /dev/null, stdout on `standardOutput` (else /dev/null).
    private static func spawn(_ program: String, _ arguments: [String], standardOutput: Int32?) throws(HostError)
        -> pid_t
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd in Int32(0)...2 {
            if fd == 1, let standardOutput {
                posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
            } else {
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
            }
        }
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = SpawnAttributes.withClean(newProcessGroup: false) { attributes in
            posix_spawnp(&pid, program, &actions, attributes, argv, environ)
        }
        guard spawned == 0 else {
            throw .program(path: program, reason: String(cString: strerror(spawned)))
        }
        return pid
    }

    /// Waits for `pid` until `deadline`: its shell status, or nil when it is still running then.
    private static func reap(_ pid: pid_t, program: String, until deadline: MonotonicInstant) throws(HostError)
        -> Int32?
    {
        while true {
            var status: Int32 = 0
            let reaped = SystemCall.retrying("waitpid") { waitpid(pid, &status, WNOHANG) }
            if reaped == pid { return ProcessEnd(waitStatus: status).shellStatus }
            if reaped < 0 { throw .program(path: program, reason: Errno.current.description) }
            guard MonotonicInstant.now < deadline else { return nil }
            usleep(5_000)
        }
    }
}
