// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptSystem

/// A short-lived helper program the prompt waits for, with a deadline: `speech-dispatcher --spawn`,
/// which starts the user's speech server (as libspeechd's autospawn does) and exits once it listens.
public enum HelperProgram {
    /// Runs `program` (looked up in PATH) with `arguments`, its standard streams on /dev/null, and
    /// waits at most `timeout` for it to exit.
    /// - Returns: its exit status (a signal's number plus 128 when it was killed).
    /// - Throws: `.program` when it cannot be started or has not ended by the deadline (it is left
    ///   running: a slow server start is not ours to kill).
    /// The corresponding C functions are `posix_spawnp` and `waitpid`.
    public static func run(_ program: String, _ arguments: [String], timeout: Duration) throws(TerminalError) -> Int32 {
        let deadline = MonotonicInstant.now + timeout
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd in Int32(0)...2 {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
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
        while true {
            var status: Int32 = 0
            let reaped = SystemCall.retrying("waitpid") { waitpid(pid, &status, WNOHANG) }
            if reaped == pid { return ProcessEnd(waitStatus: status).shellStatus }
            if reaped < 0 { throw .program(path: program, reason: Errno.current.description) }
            guard MonotonicInstant.now < deadline else {
                throw .program(path: program, reason: "it did not finish within \(timeout)")
            }
            usleep(5_000)
        }
    }
}
