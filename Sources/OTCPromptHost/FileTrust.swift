// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptSystem

/// The one rule for whether a file found on disk may be used: whose it is, what type, who else may write it, how many
/// names it has. A rule is a value (`outputFile`, `privateDirectory`, …) and a file is judged by what `fstat` or
/// `lstat` says of it (`Status`), so the decision itself is pure and tested without files.
///
/// Checked after the open, on the descriptor (`check(descriptor:)`), never on a path that can change between a check
/// and its use; a path is judged with `lstat` (`check(path:)`) only where no descriptor serves (a directory a socket is
/// bound in, the directories above one), so a symbolic link is refused there, never followed.
public struct FileTrust: Equatable, Sendable {
    /// A file's type, as `st_mode` says.
    public enum Kind: String, Equatable, Hashable, Sendable, CustomStringConvertible {
        case regularFile = "a regular file"
        case directory = "a directory"
        case fifo = "a FIFO"
        case socket = "a socket"
        case characterDevice = "a character device"
        case blockDevice = "a block device"
        case symbolicLink = "a symbolic link"

        /// The type the `S_IFMT` bits of `mode` name.
        public init(mode: mode_t) {
            switch mode & S_IFMT {
            case S_IFREG: self = .regularFile
            case S_IFDIR: self = .directory
            case S_IFIFO: self = .fifo
            case S_IFSOCK: self = .socket
            case S_IFCHR: self = .characterDevice
            case S_IFBLK: self = .blockDevice
            default: self = .symbolicLink
            }
        }

        public var description: String { rawValue }
    }

    /// What the rule looks at: the fields of `stat` that decide.
    public struct Status: Equatable, Sendable {
        public var kind: Kind
        public var owner: uid_t
        /// The permission bits (`07777`).
        public var permissions: mode_t
        /// How many names (hard links) the file has.
        public var links: Int
        /// Which device a device node is (`st_rdev`); 0 for any other file.
        public var device: UInt64

        public init(kind: Kind, owner: uid_t, permissions: mode_t, links: Int = 1, device: UInt64 = 0) {
            self.kind = kind
            self.owner = owner
            self.permissions = permissions
            self.links = links
            self.device = device
        }

        public init(_ status: stat) {
            let kind = Kind(mode: status.st_mode)
            let isDevice = kind == .characterDevice || kind == .blockDevice
            self.init(
                kind: kind, owner: status.st_uid, permissions: status.st_mode & 0o7777,
                links: Int(status.st_nlink), device: isDevice ? UInt64(status.st_rdev) : 0)
        }
    }

    /// What others (group and other users) may do with the file.
    public enum OthersMay: Equatable, Sendable {
        /// Anything: the owner's own choice of mode is kept (a log of the user's that others may read).
        case anything
        /// Read and search, never write: they could put something in, or take a checked entry away.
        case read
        /// Nothing at all: the directory is private.
        case nothing
    }

    /// Why a file is refused: one line, naming what was found.
    public enum Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        case kind(Kind)
        /// A device other than those the rule allows.
        case device(Kind)
        case owner(uid_t)
        case writableByOthers
        case openToOthers
        /// A regular file with other names: one another user made (a hard link) would be rewritten too.
        case otherNames(Int)
        case unexaminable(Errno)

        public var description: String {
            switch self {
            case .kind(let kind): "it is \(kind)"
            case .device(let kind): "it is \(kind) that keeps what is written"
            case .owner(let uid): "it belongs to \(UserAccount.describe(uid)), not to you"
            case .writableByOthers: "other users may write in it"
            case .openToOthers: "other users may read or enter it"
            case .otherNames(let count): "it has \(count - 1) other name\(count == 2 ? "" : "s") (hard links)"
            case .unexaminable(let errno): "it cannot be examined (\(errno.description))"
            }
        }
    }

    /// The types a file may be.
    public var kinds: Set<Kind>
    /// Whose it may be.
    public var owners: Set<uid_t>
    /// Whose a device may also be: only root makes device nodes (root's /dev/null).
    public var deviceOwners: Set<uid_t> = []
    /// The only devices allowed (`st_rdev`), when the kinds include one; nil: any.
    public var devices: Set<UInt64>?
    public var othersMay: OthersMay
    /// A sticky directory of root's may be writable by others (/tmp): there no one can rename or remove an entry
    /// that is not theirs.
    public var stickyOfRootMayBeShared = false
    /// A regular file must have one name.
    public var singleName = false

    public init(kinds: Set<Kind>, owners: Set<uid_t>, othersMay: OthersMay) {
        self.kinds = kinds
        self.owners = owners
        self.othersMay = othersMay
    }

    /// /dev/null's and /dev/full's device numbers, makedev(1, 3) and makedev(1, 7) (Linux's `new_encode_dev`).
    public static let discardingDevices: Set<UInt64> = [1 << 8 | 3, 1 << 8 | 7]

    /// A file the prompt writes into (`--speech-log`, `--audio-file`): a regular file or FIFO of `user`'s with one
    /// name, never another user's (root's own files are not another's to root, so root's config decides for root
    /// alone). Its mode is the user's choice. No device, but root's /dev/null and /dev/full, which keep nothing: a
    /// disk, a terminal or any other device would take the code, or be overwritten by a WAV.
    public static func outputFile(user: uid_t = getuid()) -> FileTrust {
        var rule = FileTrust(kinds: [.regularFile, .fifo, .characterDevice], owners: [user], othersMay: .anything)
        rule.deviceOwners = [0]
        rule.devices = discardingDevices
        rule.singleName = true
        return rule
    }

    /// The configuration file: a regular file of `user`'s or root's that no one else may write, since what it says
    /// decides where the code is written and whether it is shown and spoken.
    public static func configFile(user: uid_t = getuid()) -> FileTrust {
        FileTrust(kinds: [.regularFile], owners: [user, 0], othersMay: .read)
    }

    /// A directory only `user` may enter: otc-prompt's own store.
    public static func privateDirectory(user: uid_t = getuid()) -> FileTrust {
        FileTrust(kinds: [.directory], owners: [user], othersMay: .nothing)
    }

    /// A directory of `owner`'s that only they may write: where requests are posted and read.
    public static func ownDirectory(_ owner: uid_t = getuid()) -> FileTrust {
        FileTrust(kinds: [.directory], owners: [owner], othersMay: .read)
    }

    /// A directory of `owner`'s, whatever its mode: whose a runtime directory is.
    public static func directory(ownedBy owner: uid_t) -> FileTrust {
        FileTrust(kinds: [.directory], owners: [owner], othersMay: .anything)
    }

    /// A directory above one of `owner`'s: root's or `owner`'s, that no one else may change (a sticky one of
    /// root's excepted), so no one else can put another directory in the checked one's place.
    public static func ancestor(of owner: uid_t) -> FileTrust {
        var rule = FileTrust(kinds: [.directory], owners: [0, owner], othersMay: .read)
        rule.stickyOfRootMayBeShared = true
        return rule
    }

    /// The directory a socket of `owner`'s server is found in (a speech server's, PulseAudio's, brltty's): the rule of
    /// a directory above, for the same reason: whoever else could change it could put their own server in the
    /// socket's place between a check and a connection. No symbolic link: it is judged with `lstat`.
    public static func socketDirectory(of owner: uid_t = getuid()) -> FileTrust {
        ancestor(of: owner)
    }

    /// A file read as `owner`'s word (an ask file): a regular file of theirs.
    public static func ownFile(_ owner: uid_t = getuid()) -> FileTrust {
        FileTrust(kinds: [.regularFile], owners: [owner], othersMay: .anything)
    }

    /// A socket of `owner`'s, whatever its mode (the directory it is in guards it): one of another user's would hear
    /// what is sent to it, or answer in its place. Judged with `lstat` or `fstatat`, so a link to one is refused.
    public static func socket(of owner: uid_t = getuid()) -> FileTrust {
        FileTrust(kinds: [.socket], owners: [owner], othersMay: .anything)
    }

    /// Refuses `status` unless it keeps the rule.
    public func check(_ status: Status) throws(Refusal) {
        guard kinds.contains(status.kind) else { throw .kind(status.kind) }
        let isDevice = status.kind == .characterDevice || status.kind == .blockDevice
        if isDevice, let devices, !devices.contains(status.device) { throw .device(status.kind) }
        guard isDevice ? deviceOwners.contains(status.owner) : owners.contains(status.owner) else {
            throw .owner(status.owner)
        }
        let shared = status.permissions & 0o022 != 0
        let sticky = status.permissions & mode_t(S_ISVTX) != 0 && status.owner == 0 && status.kind == .directory
        switch othersMay {
        case .anything: break
        case .read: if shared && !(stickyOfRootMayBeShared && sticky) { throw .writableByOthers }
        case .nothing: if status.permissions & 0o077 != 0 { throw .openToOthers }
        }
        if singleName, status.kind == .regularFile, status.links > 1 { throw .otherNames(status.links) }
    }

    /// Refuses the open file `descriptor` unless it keeps the rule. The corresponding C call is `fstat`.
    public func check(descriptor: Int32) throws(Refusal) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unexaminable(.current) }
        try check(Status(status))
    }

    /// Refuses the file at `path` unless it keeps the rule; a symbolic link is refused, never followed.
    /// The corresponding C call is `lstat`.
    public func check(path: String) throws(Refusal) {
        var status = stat()
        guard SystemCall.retrying("lstat", { lstat(path, &status) }) == 0 else { throw .unexaminable(.current) }
        try check(Status(status))
    }
}

extension FileTrust {
    /// Why a path's directories are refused (`checkAncestors`).
    public enum PathRefusal: Error, Equatable, Sendable {
        /// Relative, or with `.` or `..` in it: the path names no fixed chain of directories.
        case notAPlainPath
        /// The directory at `path`, above the one checked, breaks `FileTrust.ancestor`.
        case above(path: String, Refusal)
    }

    /// Checks every directory above `path`, from `/` down, with `ancestor(of: owner)`: each must be one that only
    /// root or `owner` can change. A directory above that another user may write, or that another user owns, lets
    /// them rename the checked one away and put their own in its place between a check and a use by path (a
    /// `sendto`, a `rename`). A symbolic link above is refused, not followed: each use resolves the path again.
    /// Checking from the top down is enough: once a directory is one only root or `owner` can change, no one else
    /// can swap the next one below it. The corresponding C call is `lstat`.
    public static func checkAncestors(of path: String, owner: uid_t) throws(PathRefusal) {
        let components = path.split(separator: "/")
        guard path.hasPrefix("/"), !components.contains(where: { $0 == "." || $0 == ".." }) else {
            throw .notAPlainPath
        }
        var ancestors = ["/"]
        var prefix = ""
        for component in components.dropLast() {
            prefix += "/" + component
            ancestors.append(prefix)
        }
        let rule = ancestor(of: owner)
        for ancestor in ancestors {
            do { try rule.check(path: ancestor) } catch { throw .above(path: ancestor, error) }
        }
    }
}
