import Foundation
import Glibc

/// A user account made for one test: a home in the test's scratch directory, a known password, and
/// (when asked) a sudoers drop-in of its own. Everything is removed when the value goes away.
///
/// Only files this harness creates are touched: useradd/chpasswd/userdel edit the account databases
/// through their own locks, and the drop-in is a new file in /etc/sudoers.d with a unique name.
final class ThrowawayUser {
    let name: String
    let password: String
    let home: String
    let userID: uid_t
    let groupID: gid_t
    private var sudoersFile: String?

    init(in scratch: ScratchDirectory, sudo: Bool = false) throws {
        name = "otce2e" + uniqueSuffix()
        password = "right-" + uniqueSuffix()
        home = scratch.file("home-" + name)
        try runChecked(["/usr/sbin/useradd", "--create-home", "--home-dir", home, "--shell", "/bin/sh", name])
        guard let entry = getpwnam(name) else {
            _ = try? runCommand(["/usr/sbin/userdel", "--remove", "--force", name])
            throw HarnessError("useradd made no \(name)")
        }
        userID = entry.pointee.pw_uid
        groupID = entry.pointee.pw_gid
        // chpasswd reads "user:password" on stdin: from a 0600 file, never from the command line.
        let input = try scratch.write("chpasswd-" + name, "\(name):\(password)\n", mode: 0o600)
        defer { unlink(input) }
        do {
            try runChecked(["/bin/sh", "-c", "exec /usr/sbin/chpasswd < \"$1\"", "sh", input])
        } catch {
            _ = try? runCommand(["/usr/sbin/userdel", "--remove", "--force", name])
            throw error
        }
        if sudo { try allowSudo() }
    }

    deinit {
        if let sudoersFile { unlink(sudoersFile) }
        _ = try? runCommand(["/usr/sbin/userdel", "--remove", "--force", name])
    }

    /// Lets the user run anything with sudo after typing their password, without the first-use lecture.
    private func allowSudo() throws {
        // sudo skips drop-ins whose names contain a dot or end in "~".
        let path = "/etc/sudoers.d/" + name
        let rules = "Defaults:\(name) lecture=never, passwd_tries=3\n\(name) ALL=(ALL) ALL\n"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o440)
        guard descriptor >= 0 else { throw HarnessError("create \(path): \(String(cString: strerror(errno)))") }
        sudoersFile = path
        let written = rules.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
        close(descriptor)
        guard written == rules.utf8.count else { throw HarnessError("write \(path)") }
        try runChecked(["/usr/sbin/visudo", "--check", "--quiet", "--file", path])
    }

    /// `arguments` run as this user in their home (HOME must be set): setpriv changes the ids and
    /// nothing else (same session, same terminal).
    func command(_ arguments: [String]) -> [String] {
        ["/usr/bin/setpriv", "--reuid=\(name)", "--regid=\(name)", "--init-groups", "--"]
            + ["/bin/sh", "-c", "cd \"$HOME\" && exec \"$@\"", "sh"] + arguments
    }
}
