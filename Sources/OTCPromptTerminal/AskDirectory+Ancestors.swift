// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptSystem

extension AskDirectory {
    /// Checks every directory above `path`, from `/` down: each must be one that only root or `owner` can
    /// change. A directory above that another user may write, or that another user owns, lets them rename the
    /// checked directory away and put their own in its place between the check and an answer's `sendto`, which
    /// finds the socket by its path. A sticky directory of root's (`/tmp`) is fine: there others cannot rename
    /// an entry that is not theirs.
    ///
    /// A symbolic link above it is refused, not followed: the socket a request names must start with the path
    /// as written, and `sendto` resolves that path again at every answer, so each link would need its own
    /// target's directories checked each time; the real path serves as well (the defaults hold no link).
    /// A relative path, or one with `.` or `..` in it, is refused for the same reason: the path names no fixed
    /// chain of directories. Checking from the top down is enough: once a directory is one only root or `owner`
    /// can change, no one else can swap the next one below it.
    /// The corresponding C call is `lstat`.
    static func checkAncestors(of path: String, owner: uid_t) throws(Refusal) {
        let components = path.split(separator: "/")
        guard path.hasPrefix("/"), !components.contains(where: { $0 == "." || $0 == ".." }) else {
            throw .notAPlainPath(path)
        }
        var ancestors = ["/"]
        var prefix = ""
        for component in components.dropLast() {
            prefix += "/" + component
            ancestors.append(prefix)
        }
        for ancestor in ancestors {
            var status = stat()
            guard lstat(ancestor, &status) == 0 else {
                if Errno.current == .noSuchFileOrDirectory { throw .missing(path) }
                throw .unreadable(ancestor, .current)
            }
            let type = status.st_mode & S_IFMT
            if type == S_IFLNK { throw .symbolicLinkAbove(ancestor) }
            guard type == S_IFDIR else { throw .notADirectory(ancestor) }
            guard status.st_uid == 0 || status.st_uid == owner else {
                throw .ancestorOfAnotherUser(ancestor, status.st_uid)
            }
            let othersMayWrite = status.st_mode & UInt32(S_IWGRP | S_IWOTH) != 0
            let stickyOfRoot = status.st_mode & UInt32(S_ISVTX) != 0 && status.st_uid == 0
            guard !othersMayWrite || stickyOfRoot else { throw .ancestorWritableByOthers(ancestor) }
        }
    }
}
