import Foundation
import Glibc

/// Whether this machine lets the tests make namespaces of their own. Being root is not enough: a container
/// without CAP_SYS_ADMIN, or with unshare blocked by seccomp, refuses them, and a test that needs one is
/// skipped there rather than failed.
public enum Namespaces {
    /// Whether `unshare OPTIONS true` succeeds here (e.g. `["-m"]` for a mount namespace, or
    /// `["--pid", "--fork", "--mount-proc"]` for a PID namespace with its own /proc).
    public static func available(_ options: [String]) -> Bool {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        return (try? runWithStatus("/usr/bin/unshare", options + ["/bin/true"], captureOutput: false).status) == 0
    }
}
