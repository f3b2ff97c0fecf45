// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptSystem

/// Where a question without a terminal is posted for the user's password agent (`otc-prompt --agent`).
///
/// A password goes to systemd's per-user directory, where any agent may answer it; a yes/no question or a notice,
/// which systemd's protocol cannot express, only to otc-prompt's own, so no other agent takes it for a password.
public enum AskPostDirectory: Sendable {
    /// `$XDG_RUNTIME_DIR/systemd/ask-password` (systemd 257's per-user directory).
    case systemd
    /// `$XDG_RUNTIME_DIR/otc-prompt/ask`.
    case otcPrompt

    /// The directory's path below the runtime directory.
    var components: [String] {
        switch self {
        case .systemd: ["systemd", "ask-password"]
        case .otcPrompt: ["otc-prompt", "ask"]
        }
    }

    /// The directory, made ready to post in: each missing level below `XDG_RUNTIME_DIR` created 0700, and every
    /// level, the runtime directory included, a real directory (a symbolic link is never followed) that belongs to
    /// this user and that no one else may write. Anything else is refused: another user could read or swap the
    /// question, or answer it.
    /// - Throws: `.cannotPost` (no runtime directory, or a level refused), or mkdir failed.
    /// The corresponding C calls are `mkdir`, `lstat` and `getuid`.
    public func prepare(environment: [String: String]) throws(HostError) -> String {
        // Written plainly ("/run/user/1000", not "/run//user/1000/"): an agent takes `Socket=` only as a plain
        // absolute path.
        let levels = environment["XDG_RUNTIME_DIR"]?.split(separator: "/", omittingEmptySubsequences: true) ?? []
        guard environment["XDG_RUNTIME_DIR"]?.hasPrefix("/") == true,
            !levels.contains(where: { $0 == "." || $0 == ".." })
        else {
            throw .cannotPost(path: "XDG_RUNTIME_DIR", reason: "it is not set to a plain absolute path")
        }
        var path = "/" + levels.joined(separator: "/")
        try Self.check(path)
        for component in components {
            path += "/" + component
            if SystemCall.retrying("mkdir", { mkdir(path, 0o700) }) != 0, Errno.current != Errno(rawValue: EEXIST) {
                throw .cannotPost(path: path, reason: "mkdir: \(Errno.current.description)")
            }
            try Self.check(path)
        }
        return path
    }

    /// Refuses `path` unless it is a directory of this user's that no one else may write, not a link
    /// (`FileTrust.ownDirectory`), below directories only root or the user can change (`FileTrust.checkAncestors`).
    static func check(_ path: String) throws(HostError) {
        let advice = "; it must be a directory of yours that only you can write"
        do { try FileTrust.checkAncestors(of: path, owner: getuid()) } catch {
            guard case .above(let above, let refusal) = error else {
                throw .cannotPost(path: path, reason: "it is not a plain absolute path" + advice)
            }
            throw .cannotPost(
                path: path, reason: "\(above) above it: \(refusal), so another user could put their own in its place")
        }
        do { try FileTrust.ownDirectory().check(path: path) } catch {
            throw .cannotPost(path: path, reason: "\(error)" + advice)
        }
    }
}
