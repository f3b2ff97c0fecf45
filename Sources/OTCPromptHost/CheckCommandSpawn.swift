#if canImport(Glibc)
    import Glibc
    import OTCPromptSystem
#elseif canImport(Musl)
    import Musl
#endif

/// The system calls behind `CheckCommand.start`: pipes, posix_spawn, feeding standard input.
extension CheckCommand {
    /// SIGPIPE ignored (a write to a command that did not read gives EPIPE), and SIGCHLD not ignored (an ignored
    /// SIGCHLD makes the kernel reap children itself, and `waitpid` could never report the check's status).
    static func prepareSignals() {
        _ = signal(SIGPIPE, SIG_IGN)
        var current = sigaction()
        if sigaction(SIGCHLD, nil, &current) == 0,
            unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == 1  // SIG_IGN
        {
            _ = signal(SIGCHLD, SIG_DFL)
        }
    }

    /// A close-on-exec pipe whose ends are above 2, so dup2 onto 0 or 2 in the child always copies.
    /// (Swift's Glibc has no pipe2: each end is moved with F_DUPFD_CLOEXEC, which also sets close-on-exec.)
    static func makePipe() throws(HostError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw .checkCommand(Errno.current, call: "pipe") }
        for index in fds.indices {
            let moved = fcntl(fds[index], F_DUPFD_CLOEXEC, 3)
            let failure = Errno.current
            close(fds[index])
            fds[index] = moved
            if moved < 0 {
                for fd in fds where fd >= 0 { close(fd) }
                throw .checkCommand(failure, call: "fcntl")
            }
        }
        return (fds[0], fds[1])
    }

    /// `/bin/sh -c command` in a new process group: stdin from `stdin`, stdout to /dev/null, stderr to `stderr`.
    static func spawnShell(command: String, stdin: Int32, stderr: Int32, environment: [String: String]?)
        -> Result<pid_t, HostError>
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        // The terminal, the speech log: whatever we hold open without close-on-exec stays ours.
        for fd in Int32(3)..<64 where fd != stdin && fd != stderr {
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0, flags & FD_CLOEXEC == 0 { posix_spawn_file_actions_addclose(&actions, fd) }
        }

        let arguments = ["/bin/sh", "-c", command].map(cString) + [nil]
        defer { for argument in arguments { free(argument) } }
        let environmentStrings = environment.map {
            $0.map { cString("\($0.key)=\($0.value)") } + [nil]
        }
        defer { for entry in environmentStrings ?? [] { free(entry) } }

        var processID: pid_t = 0
        let code = SpawnAttributes.withClean(newProcessGroup: true) { attributes in
            if let environmentStrings {
                posix_spawn(&processID, "/bin/sh", &actions, attributes, arguments, environmentStrings)
            } else {
                posix_spawn(&processID, "/bin/sh", &actions, attributes, arguments, environ)
            }
        }
        return code == 0 ? .success(processID) : .failure(.checkCommand(Errno(rawValue: code), call: "posix_spawn"))
    }

    /// A malloc'ed C copy of `text`, for argv and envp (freed by the caller).
    private static func cString(_ text: String) -> UnsafeMutablePointer<CChar>? {
        text.withCString { strdup($0) }
    }

    /// Writes `bytes` to the command's stdin and closes it (its end of file).
    ///
    /// A code fits in the pipe at once. Input larger than the pipe is finished on a background thread, so the
    /// prompt never waits for a command that reads slowly, or not at all (then the write ends with EPIPE).
    static func feed(_ bytes: [UInt8], to fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let written = SystemCalls.writeWithoutWaiting(bytes, to: fd)
        guard written < bytes.count, Errno.current == .resourceTemporarilyUnavailable else {
            close(fd)
            return
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        let rest = Array(bytes[written...])
        // On a thread of its own (not a dispatch queue: libdispatch stays out of the binary); without
        // one, the check reads an input cut short rather than the prompt waiting on it.
        do {
            try DetachedThread.start {
                _ = SystemCalls.writeAll(rest, to: fd)
                close(fd)
            }
        } catch {
            close(fd)
        }
    }
}
