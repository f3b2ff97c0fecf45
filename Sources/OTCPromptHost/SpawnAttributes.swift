// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptSystem

/// The attributes every program we start gets: an empty signal mask and default handling for the
/// signals the prompt blocks or ignores, so that a check, or a speech-dispatcher we start, can be
/// stopped like any other program (it would otherwise inherit the prompt's blocked SIGTERM).
enum SpawnAttributes {
    /// The signals `SignalWatcher` blocks or ignores, reset to their default in the child.
    static let defaultSignals: [Int32] = [
        SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGTSTP, SIGTTIN, SIGTTOU, SIGCHLD, SIGALRM, SIGWINCH, SIGUSR1,
        SIGUSR2, SIGXFSZ,
    ]

    /// Runs `body` with attributes that give the child a clean signal state, and a new process group
    /// when `newProcessGroup`. The corresponding C functions are the `posix_spawnattr_*` calls.
    static func withClean<Result>(
        newProcessGroup: Bool, _ body: (UnsafePointer<posix_spawnattr_t>) -> Result
    ) -> Result {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        let group = newProcessGroup ? POSIX_SPAWN_SETPGROUP : 0
        posix_spawnattr_setflags(&attributes, Int16(group | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        if newProcessGroup { posix_spawnattr_setpgroup(&attributes, 0) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in defaultSignals { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        return body(&attributes)
    }
}
