// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

extension PseudoTerminalProcess {
    // From <spawn.h>, behind _GNU_SOURCE so not imported: run the child in a new session.
    private static let spawnSetSessionID: Int32 = 0x80

    /// A pipe with both ends close-on-exec, the read end non-blocking.
    static func makePipe() throws(PseudoTerminalError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        // pipe2 is not imported. A child spawned by a parallel test between pipe and fcntl could
        // inherit an end; `drainToEnd` bounds the wait that would cause.
        guard pipe(&ends) == 0 else { throw PseudoTerminalError("pipe") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        return (ends[0], ends[1])
    }

    /// posix_spawn with a new session, an empty signal mask and every catchable signal at its
    /// default. The terminal (if any) is opened by path as fd 0 first, which makes it the session's
    /// controlling terminal; stderr is duplicated from it unless a pipe is given; then stdin is
    /// replaced by /dev/null if asked (the controlling terminal stays). stdout is `standardOutput`.
    static func spawn(
        executable: String, arguments: [String], environment: [String: String],
        terminalPath: String?, standardInputIsTerminal: Bool, standardOutput: Int32, standardError: Int32?,
        standardInput: Int32? = nil
    ) -> Result<pid_t, PseudoTerminalError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let standardInput, terminalPath == nil {
            posix_spawn_file_actions_adddup2(&actions, standardInput, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, terminalPath ?? "/dev/null", O_RDWR, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
        posix_spawn_file_actions_adddup2(&actions, standardError ?? 0, 2)
        if terminalPath != nil && !standardInputIsTerminal {
            posix_spawn_file_actions_addclose(&actions, 0)
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var catchable = sigset_t()
        sigfillset(&catchable)
        sigdelset(&catchable, SIGKILL)
        sigdelset(&catchable, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &catchable)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | spawnSetSessionID))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        var result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        // A script written a moment ago can be busy for a moment more: a program another test spawned in between
        // holds the writing descriptor (close-on-exec, but only closed at its own exec). Go's os/exec retries too.
        var tries = 0
        while result == ETXTBSY && tries < 100 {
            tries += 1
            usleep(10_000)
            result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        }
        guard result == 0 else {
            // The error is posix_spawn's result: errno may have been changed since (the message's own allocation).
            let path = terminalPath.map { " (terminal \($0))" } ?? ""
            return .failure(PseudoTerminalError("posix_spawn \(executable)\(path)", errno: result))
        }
        return .success(pid)
    }
}
