import Foundation
import Glibc

/// A shell the prompt judges to be an SSH login, by the evidence it reads in production: the session of its
/// terminal was opened by a process whose name begins with "sshd" (`SessionLocation`). The kernel names a
/// process after the file it executed, so /bin/sh run through a link called "sshd-e2e" is such a process. Nothing
/// in the environment says so.
enum RemoteLogin {
    /// The link, made once per test process in its own directory.
    static let shell: String = {
        let directory = NSTemporaryDirectory() + "/otc-e2e-sshd-\(getpid())-\(UUID().uuidString.prefix(8))"
        mkdir(directory, 0o700)
        let path = directory + "/sshd-e2e"
        symlink("/bin/sh", path)
        atexit { try? FileManager.default.removeItem(atPath: RemoteLogin.directory) }
        return path
    }()

    private static var directory: String { (shell as NSString).deletingLastPathComponent }
}
