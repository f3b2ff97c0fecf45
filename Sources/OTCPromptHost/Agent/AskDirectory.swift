// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptCore
import OTCPromptSystem

/// One directory of password requests (`/run/systemd/ask-password`, `$XDG_RUNTIME_DIR/systemd/ask-password`,
/// otc-prompt's own), opened once and read only through its descriptor: its ask files, the sockets they name, the
/// one datagram sent to a socket.
///
/// Every file here is written by another program, so each is checked before it is believed: the directory is a
/// real directory of `owner`'s that no one else may write; an ask file is a regular file of `owner`'s
/// (O_NOFOLLOW: a symlink is refused, never followed), at most `AskFile.maximumSize`; the socket it names is in
/// this directory, a socket (lstat: never a symlink) owned by `owner` too.
///
/// `@unchecked Sendable`: nothing in it changes after `init`; a relay's thread asks `contains` while the agent waits.
public final class AskDirectory: @unchecked Sendable {
    public let path: String
    /// The user whose requests it holds: root's for the system directory, the agent's own otherwise.
    public let owner: uid_t
    let descriptor: Int32

    /// Why a directory or a request is not used: one line, said on the terminal.
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        case missing(String)
        case notADirectory(String)
        case wrongOwner(String, uid_t)
        case writableByOthers(String)
        /// A directory above the watched one (`checkAncestors`).
        case ancestorOfAnotherUser(String, uid_t)
        case ancestorWritableByOthers(String)
        case symbolicLinkAbove(String)
        case notAPlainPath(String)
        case unreadable(String, Errno)
        case notARegularFile
        case tooLarge
        case malformed(AskFileError)
        case socketOutsideDirectory
        case socketNotASocket
        case socketWrongOwner

        public var description: String {
            switch self {
            case .missing(let path): "\(path) does not exist"
            case .notADirectory(let path): "\(path) is not a directory"
            case .wrongOwner(let path, let uid): "\(path) belongs to user \(uid), not to the agent's user"
            case .writableByOthers(let path): "\(path) may be written by other users"
            case .ancestorOfAnotherUser(let path, let uid):
                "\(path) above it belongs to user \(uid), who could put another directory in its place"
            case .ancestorWritableByOthers(let path):
                "\(path) above it may be written by other users, who could put another directory in its place"
            case .symbolicLinkAbove(let path): "\(path) above it is a symbolic link; name the real directory"
            case .notAPlainPath(let path): "\(path) is not an absolute path without . or .."
            case .unreadable(let path, let errno): "\(path) cannot be read (\(errno))"
            case .notARegularFile: "it is not a regular file of the directory's owner"
            case .tooLarge: "it is larger than \(AskFile.maximumSize / 1024) KiB"
            case .malformed(let error): "it is not a request (\(error))"
            case .socketOutsideDirectory: "its socket is not in the same directory"
            case .socketNotASocket: "its socket is not a socket"
            case .socketWrongOwner: "its socket does not belong to the directory's owner"
            }
        }
    }

    /// Opens `path` as a directory of `owner`'s requests; one that others may write is refused: they could put
    /// a request there, or replace a checked socket. So is one below a directory others may change
    /// (`checkAncestors`): they could swap it whole.
    /// The corresponding C calls are `lstat` (each directory above), `open` (O_DIRECTORY, O_NOFOLLOW) and `fstat`.
    public init(path: String, owner: uid_t) throws(Refusal) {
        try Self.checkAncestors(of: path, owner: owner)
        let descriptor = SystemCall.retrying("open") {
            open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        }
        guard descriptor >= 0 else {
            let errno = Errno.current
            if errno == .noSuchFileOrDirectory { throw .missing(path) }
            if errno.rawValue == ENOTDIR || errno.rawValue == ELOOP { throw .notADirectory(path) }
            throw .unreadable(path, errno)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            close(descriptor)
            throw .unreadable(path, .current)
        }
        do { try FileTrust.ownDirectory(owner).check(FileTrust.Status(status)) } catch {
            close(descriptor)
            switch error {
            case .owner(let uid): throw .wrongOwner(path, uid)
            case .kind: throw .notADirectory(path)
            default: throw .writableByOthers(path)
            }
        }
        self.path = path
        self.owner = owner
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The requests in the directory now, in the order they were made (the inode's change time, then the name),
    /// each with its file's identity. The corresponding C calls are `fdopendir`, `readdir` and `fstatat`.
    public func requests() -> [(name: String, identity: AgentQueue.Identity)] {
        let copy = dup(descriptor)
        guard copy >= 0, let directory = fdopendir(copy) else { return [] }
        defer { closedir(directory) }
        rewinddir(directory)
        var found: [(String, Int, Int, AgentQueue.Identity)] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard AgentQueue.isRequestName(name) else { continue }
            var status = stat()
            guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            found.append((name, status.st_ctim.tv_sec, status.st_ctim.tv_nsec, Self.identity(status)))
        }
        return found.sorted { ($0.1, $0.2, $0.0) < ($1.1, $1.2, $1.0) }.map { ($0.0, $0.3) }
    }

    /// The identity of the file `name` now; nil when it is gone. The corresponding C call is `fstatat`.
    public func identity(of name: String) -> AgentQueue.Identity? {
        var status = stat()
        guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return Self.identity(status)
    }

    private static func identity(_ status: stat) -> AgentQueue.Identity {
        AgentQueue.Identity(
            inode: UInt64(status.st_ino),
            modified: Int64(status.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(status.st_mtim.tv_nsec))
    }

    /// The request in the file `name`, checked as the type says. The corresponding C calls are `openat`
    /// (O_NOFOLLOW, O_NONBLOCK: a FIFO never blocks), `fstat`, `read` and `fstatat` (the socket, not followed).
    public func read(_ name: String) throws(Refusal) -> AskFile { try readIdentified(name).file }

    /// The request in the file `name` (`read`), with the identity of the very file read: a file put in its place
    /// later has another, so that an answer is never sent for a request its name no longer holds.
    public func readIdentified(_ name: String) throws(Refusal) -> (file: AskFile, identity: AgentQueue.Identity) {
        let file = SystemCall.retrying("openat") {
            openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        }
        guard file >= 0 else {
            if Errno.current.rawValue == ELOOP { throw .notARegularFile }
            throw .unreadable(name, .current)
        }
        defer { close(file) }
        var status = stat()
        guard fstat(file, &status) == 0 else { throw .unreadable(name, .current) }
        guard (try? FileTrust.ownFile(owner).check(FileTrust.Status(status))) != nil else { throw .notARegularFile }
        guard status.st_size <= AskFile.maximumSize else { throw .tooLarge }
        // One byte more than allowed: a file that grew since fstat is still refused.
        var bytes = [UInt8](repeating: 0, count: AskFile.maximumSize + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes[count...].withUnsafeMutableBytes { raw in
                SystemCall.retrying("read") { Glibc.read(file, raw.baseAddress, raw.count) }
            }
            if got < 0 { throw .unreadable(name, .current) }
            if got == 0 { break }
            count += got
        }
        let request: AskFile
        do { request = try AskFile.parse(bytes[..<count]) } catch { throw .malformed(error) }
        try checkSocket(request.socket)
        return (request, Self.identity(status))
    }

    /// The socket must be an entry of this directory (not a path through it, not a symlink), a socket, and
    /// `owner`'s.
    private func checkSocket(_ socket: String) throws(Refusal) {
        let directory = path.hasSuffix("/") ? String(path.dropLast()) : path
        guard socket.hasPrefix(directory + "/") else { throw .socketOutsideDirectory }
        let name = String(socket.dropFirst(directory.count + 1))
        guard !name.isEmpty, !name.contains("/") else { throw .socketOutsideDirectory }
        var status = stat()
        guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { throw .unreadable(name, .current) }
        do { try FileTrust.socket(of: owner).check(FileTrust.Status(status)) } catch {
            throw error == .owner(status.st_uid) ? .socketWrongOwner : .socketNotASocket
        }
    }

    /// Whether `name` is still there: a request answered by another agent, or given up, is removed by its querier.
    public func contains(_ name: String) -> Bool {
        var status = stat()
        return fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0
    }

    /// The longest an answer waits for room in the querier's socket: a querier reads its answer at once, and one
    /// whose queue stays full (it stopped reading, or something else fills it) must not hold the agent, nor keep a
    /// signal from ending it.
    public static let answerPatience: Duration = .seconds(1)

    /// Sends `answer` as one datagram to `socket` (checked by `read`), from locked memory wiped right after; the
    /// secret inside is wiped too. Returns the error that stopped it (the querier gone: ECONNREFUSED, ENOENT; its
    /// queue still full after `patience`: ETIMEDOUT, and the answer is not sent).
    /// The corresponding C calls are `socket` (AF_UNIX, SOCK_DGRAM), `connect`, `send` and `poll`.
    @discardableResult
    public static func send(_ answer: AgentAnswer, to socket: String, patience: Duration = answerPatience) -> Errno? {
        defer { if case .password(let secret) = answer { secret.wipe() } }
        let deadline = MonotonicInstant.now + patience
        let sender = SystemCall.retrying("socket") {
            Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        guard sender >= 0 else { return .current }
        defer { close(sender) }
        guard let address = UnixSocketAddress(path: socket) else { return .fileNameTooLong }
        // Connected, so that poll says when the querier's queue has room: a datagram socket's POLLOUT follows its
        // peer's queue.
        guard
            address.withSocketAddress({ socketAddress, length in
                SystemCall.retrying("connect") { connect(sender, socketAddress, length) }
            }) == 0
        else { return .current }
        let buffer = LockedBytes(count: answer.datagramCount)
        defer { buffer.wipe() }
        let count = answer.writeDatagram(into: UnsafeMutableRawBufferPointer(buffer.bytes))
        while true {
            let sent = SystemCall.retrying("send") {
                Glibc.send(sender, buffer.bytes.baseAddress, count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if sent == count { return nil }
            guard sent < 0, Errno.current == .resourceTemporarilyUnavailable else { return .current }
            let left = MonotonicInstant.now.duration(to: deadline)
            guard left > .zero else { return .timedOut }
            var room = pollfd(fd: sender, events: Int16(POLLOUT), revents: 0)
            _ = SystemCall.retrying("poll") { poll(&room, 1, left.pollTimeout) }
        }
    }
}

extension AskDirectory {
    /// Makes `path` and its missing parents with `mode`, as systemd's queriers do; one that exists is left as it
    /// is, its mode never changed. The corresponding C call is `mkdir`.
    public static func make(_ path: String, mode: mode_t) {
        var prefix = ""
        for component in path.split(separator: "/") {
            prefix += "/" + component
            _ = SystemCall.retrying("mkdir") { mkdir(prefix, mode) }
        }
    }
}
