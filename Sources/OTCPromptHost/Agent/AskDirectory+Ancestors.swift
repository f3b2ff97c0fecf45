// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptSystem

extension AskDirectory {
    /// Checks every directory above `path` by the one rule (`FileTrust.checkAncestors`), each refusal in the words
    /// of the agent's own. A symbolic link above is refused, not followed: the socket a request names must start
    /// with the path as written, and `sendto` resolves that path again at every answer; the real path serves as
    /// well (the defaults hold no link). The corresponding C call is `lstat`.
    static func checkAncestors(of path: String, owner: uid_t) throws(Refusal) {
        do { try FileTrust.checkAncestors(of: path, owner: owner) } catch {
            switch error {
            case .notAPlainPath: throw .notAPlainPath(path)
            case .above(let ancestor, .kind(.symbolicLink)): throw .symbolicLinkAbove(ancestor)
            case .above(let ancestor, .kind), .above(let ancestor, .device): throw .notADirectory(ancestor)
            case .above(let ancestor, .owner(let uid)): throw .ancestorOfAnotherUser(ancestor, uid)
            case .above(let ancestor, .writableByOthers), .above(let ancestor, .openToOthers):
                throw .ancestorWritableByOthers(ancestor)
            case .above(_, .unexaminable(let errno)) where errno == .noSuchFileOrDirectory: throw .missing(path)
            case .above(let ancestor, .unexaminable(let errno)): throw .unreadable(ancestor, errno)
            case .above(let ancestor, .otherNames): throw .notADirectory(ancestor)
            }
        }
    }
}
