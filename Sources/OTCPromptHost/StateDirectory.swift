// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptSystem

/// otc-prompt's small per-user store (`AskRecord`, notices already given): a private directory,
/// `$XDG_RUNTIME_DIR/otc-prompt`, or `/tmp/otc-prompt-UID` where XDG_RUNTIME_DIR is unset.
///
/// It is used only if it is a directory only this user may enter (`FileTrust.privateDirectory`: no symbolic link),
/// below directories only root or this user can change (`FileTrust.checkAncestors`); anything else (another user's
/// directory planted in /tmp) means no store, and the prompt works as if nothing were remembered. Nothing secret is
/// ever written here.
public struct StateDirectory: Sendable {
    public let path: String

    /// The store, created 0700 if missing; nil where it cannot be had safely.
    /// The corresponding C calls are `mkdir`, `lstat` and `getuid`.
    public static func open(environment: [String: String]) -> StateDirectory? {
        // Only a runtime directory of this user's: root run with a user's XDG_RUNTIME_DIR (`su`, `sudo -E`) would
        // otherwise make a root-owned directory in it, which the user's own prompts then refuse.
        let base = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") && ownedByThisUser($0) ? $0 : nil }
        let path = base.map { $0 + "/otc-prompt" } ?? "/tmp/otc-prompt-\(getuid())"
        _ = mkdir(path, 0o700)
        guard (try? FileTrust.checkAncestors(of: path, owner: getuid())) != nil,
            (try? FileTrust.privateDirectory().check(path: path)) != nil
        else { return nil }
        return StateDirectory(path: path)
    }

    private static func ownedByThisUser(_ path: String) -> Bool {
        (try? FileTrust.directory(ownedBy: getuid()).check(path: path)) != nil
    }

    /// The text of `name` in the store, nil when missing or unreadable (at most 4 KiB).
    /// The corresponding C calls are `open(O_NOFOLLOW)` and `read`.
    public func read(_ name: String) -> String? {
        let descriptor = SystemCall.retrying("open") {
            Glibc.open(path + "/" + name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        }
        guard descriptor >= 0 else { return nil }
        defer { _ = close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { raw in
            SystemCall.retrying("read") {
                Int32(truncatingIfNeeded: Glibc.read(descriptor, raw.baseAddress, raw.count))
            }
        }
        return count > 0 ? String(decoding: buffer[..<Int(count)], as: UTF8.self) : nil
    }

    /// Replaces `name` with `text` at once (a new 0600 file renamed over the old), so a reader never
    /// sees half of it. Best effort: a store that cannot be written only forgets.
    /// The corresponding C calls are `open(O_EXCL|O_NOFOLLOW)`, `write` and `rename`.
    public func write(_ name: String, _ text: String) {
        let temporary = path + "/." + name + ".\(getpid())"
        let descriptor = SystemCall.retrying("open") {
            Glibc.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        }
        guard descriptor >= 0 else { return }
        let failed = SystemCalls.writeAll(text.utf8, to: descriptor) != nil
        _ = close(descriptor)
        if failed || rename(temporary, path + "/" + name) != 0 { _ = unlink(temporary) }
    }

    /// Removes `name`; nothing happens if it is not there. The corresponding C call is `unlink`.
    public func remove(_ name: String) {
        _ = unlink(path + "/" + name)
    }

    /// Seconds since boot, the time `AskRecord` keeps: it never jumps with the wall clock.
    /// The corresponding C call is `clock_gettime(CLOCK_BOOTTIME)`.
    public static var secondsSinceBoot: Int64 {
        var time = timespec()
        clock_gettime(CLOCK_BOOTTIME, &time)
        return Int64(time.tv_sec)
    }

    /// This login session, to give one-time notices once per session: the kernel's audit session
    /// (`/proc/self/sessionid`, set at login) where there is one, else the process's session.
    /// The corresponding C calls are `open`, `read` and `getsid`.
    public static var loginSession: String {
        let descriptor = Glibc.open("/proc/self/sessionid", O_RDONLY | O_CLOEXEC)
        if descriptor >= 0 {
            defer { _ = close(descriptor) }
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            if count > 0, let id = UInt32(String(decoding: buffer[..<count], as: UTF8.self)), id != UInt32.max {
                return "audit:\(id)"
            }
        }
        return "sid:\(getsid(0))"
    }

    /// The parent process: an askpass caller (sudo, ssh, git) asks again from the same one.
    /// The corresponding C call is `getppid`.
    public static var parentProcess: Int32 { getppid() }
}
