// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptHost
import OTCPromptSystem

/// A background program that asks at the terminal for a moment (the polkit agent, started with `&` in a shell
/// with job control): it joins the terminal's foreground process group for the request, so that it reads and sets
/// the terminal as the program waiting there would, and the shell, which reads only when its own group is the
/// foreground, does not read beside it; then it goes back to a group of its own.
extension Terminal {
    /// The terminal's foreground process group, nil when it has none. The corresponding C function is `tcgetpgrp`.
    public var foregroundGroup: Int32? {
        let group = SystemCall.retrying("tcgetpgrp") { tcgetpgrp(input) }
        return group > 0 ? group : nil
    }

    /// Joins `group`, which must be the terminal's foreground in this process's session; true when this process is
    /// then in the terminal's foreground group. The corresponding C functions are `setpgid` and `tcgetpgrp`.
    public func joinForeground(_ group: Int32) -> Bool {
        guard SystemCall.retrying("setpgid") { setpgid(0, group) } == 0 else { return false }
        // The foreground may have changed meanwhile (the shell took the terminal back).
        return foregroundGroup == getpgrp()
    }

    /// Puts the terminal back, then this process back in a group of its own: the background, where it reads
    /// nothing. The corresponding C function is `setpgid`.
    public func leaveForeground() {
        restore()
        _ = SystemCall.retrying("setpgid") { setpgid(0, 0) }
    }

    /// Ignores SIGTTOU and SIGTTIN for good: a program that sets the terminal back after its asker ended (when the
    /// shell may already have taken the terminal back) is never stopped for it; a read from the background fails
    /// instead of stopping. The corresponding C function is `sigaction`.
    public static func neverStopForJobControl() {
        var ignore = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        sigemptyset(&ignore.sa_mask)
        for signal in [SIGTTOU, SIGTTIN] { _ = SystemCall.retrying("sigaction") { sigaction(signal, &ignore, nil) } }
    }
}
