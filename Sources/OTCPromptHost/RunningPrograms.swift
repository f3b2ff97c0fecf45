// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptSystem

/// What runs and what is installed, for `--speech auto` and `--doctor`: read from /proc, /sys and PATH,
/// never by starting anything.
public enum RunningPrograms {
    /// The command names (`/proc/PID/comm`) of the processes whose real uid is `uid`: another user's screen
    /// reader says nothing about this one's needs. A script such as /usr/bin/fenrir or /usr/bin/orca shows
    /// under its own name. The corresponding C calls are those of `ProcessTable.read`.
    public static func names(ownedBy uid: UInt32) -> Set<String> {
        Set(ProcessTable.read().filter { $0.uid == uid }.map(\.name))
    }

    /// Whether `path` exists (a /sys entry such as /sys/accessibility/speakup). The corresponding C call is `access`.
    public static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Whether `program` is an executable file in one of `searchPath`'s directories (PATH).
    /// The corresponding C call is `access(X_OK)`.
    public static func isInstalled(_ program: String, searchPath: String?) -> Bool {
        let directories = (searchPath ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        return directories.contains { access("\($0)/\(program)", X_OK) == 0 }
    }
}
