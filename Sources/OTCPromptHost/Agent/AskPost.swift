// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptSystem

/// One question posted for a password agent, as systemd's queriers post theirs (`ask-password-api.c`): a datagram
/// socket `sck.*` bound in the directory (mode 0600), then the ask file, written under a temporary name and renamed
/// `ask.*` so that an agent watching for IN_MOVED_TO never reads half of it. The answer is one datagram on the
/// socket, from this user or root. `withdraw()` (and the end of the value) removes both files.
public final class AskPost {
    /// The socket the answer comes to; the ask file's `Socket=`.
    public let socketPath: String
    /// The ask file, once published.
    public private(set) var askPath: String?
    private let directory: String
    private let name: String
    private var descriptor: Int32

    /// The most bytes an answer may have ("+" and the secret): systemd's agents send at most LINE_MAX. A longer
    /// datagram is no answer.
    public static let answerLimit = 16 * 1024

    /// Binds the answer socket in `directory` (made ready by `AskPostDirectory.prepare`).
    /// The corresponding C calls are `socket`, `bind` (under umask 0177, as systemd does) and `setsockopt(SO_PASSCRED)`.
    public init(directory: String) throws(HostError) {
        self.directory = directory
        name = Self.randomName()
        socketPath = directory + "/sck." + name
        descriptor = Glibc.socket(
            AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else {
            throw .cannotPost(path: socketPath, reason: "socket: \(Errno.current.description)")
        }
        guard let address = UnixSocketAddress(path: socketPath) else {
            close()
            throw .cannotPost(
                path: socketPath, reason: "too long for a socket's address; use a shorter XDG_RUNTIME_DIR")
        }
        let previousMask = umask(0o177)
        let bound = address.withSocketAddress { Glibc.bind(descriptor, $0, $1) }
        let bindFailure = Errno.current
        umask(previousMask)
        guard bound == 0 else {
            close()
            throw .cannotPost(path: socketPath, reason: "bind: \(bindFailure.description)")
        }
        var on: Int32 = 1
        guard setsockopt(descriptor, SOL_SOCKET, SO_PASSCRED, &on, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            let failure = Errno.current
            withdraw()
            throw .cannotPost(path: socketPath, reason: "setsockopt: \(failure.description)")
        }
    }

    deinit { withdraw() }

    /// Writes `text`, the ask file, as `tmp.*` (0600, never through a link) and renames it `ask.*`.
    /// The corresponding C calls are `open(O_EXCL|O_NOFOLLOW)`, `write` and `rename`.
    public func publish(_ text: String) throws(HostError) {
        let temporary = directory + "/tmp." + name
        let file = SystemCall.retrying("open") {
            Glibc.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        }
        guard file >= 0 else { throw .cannotPost(path: temporary, reason: "open: \(Errno.current.description)") }
        let failure = SystemCalls.writeAll(text.utf8, to: file)
        _ = Glibc.close(file)
        let final = directory + "/ask." + name
        if let failure {
            _ = unlink(temporary)
            throw .cannotPost(path: temporary, reason: "write: \(failure.description)")
        }
        guard rename(temporary, final) == 0 else {
            let failure = Errno.current
            _ = unlink(temporary)
            throw .cannotPost(path: final, reason: "rename: \(failure.description)")
        }
        askPath = final
    }

    /// How the wait ended.
    public enum Waited {
        /// An answer from this user or root: its bytes ("+secret", "-") in locked memory, wiped when released.
        case answer(LockedBytes, count: Int)
        /// The deadline passed with no answer.
        case timedOut
        /// A terminating signal arrived: withdraw, then raise it again.
        case signalled(Int32)
        /// A descriptor in `caller` hung up: whoever waits for the answer has gone.
        case callerGone
    }

    /// Waits for the answer until `deadline`, watching `signals` and the hang-up of `caller`'s descriptors.
    /// A datagram from another user, without credentials or too long is ignored, as systemd's queriers do.
    /// The corresponding C calls are `poll` and `recvmsg`.
    public func waitForAnswer(until deadline: MonotonicInstant, signals: SignalWatcher?, caller: [Int32]) -> Waited {
        while true {
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            if let signals { descriptors.append(pollfd(fd: signals.descriptor, events: Int16(POLLIN), revents: 0)) }
            for fd in caller { descriptors.append(pollfd(fd: fd, events: SystemCalls.pollReadHangUp, revents: 0)) }
            let timeout = MonotonicInstant.now.duration(to: deadline).pollTimeout
            let ready = SystemCall.retrying("poll") { poll(&descriptors, nfds_t(descriptors.count), timeout) }
            // A poll that fails for good (EINVAL, ENOMEM) would otherwise spin here until the caller gives up.
            if ready < 0 || (ready == 0 && MonotonicInstant.now >= deadline) { return .timedOut }
            if ready <= 0 { continue }
            if let signals, descriptors[1].revents != 0, let signal = signals.takePendingSignal() {
                return .signalled(signal)
            }
            if descriptors.suffix(caller.count).contains(where: { $0.revents != 0 }) { return .callerGone }
            if descriptors[0].revents != 0, let answer = receive() { return answer }
        }
    }

    /// One datagram, if it is an answer to trust.
    private func receive() -> Waited? {
        let buffer = LockedBytes(count: Self.answerLimit)
        let control = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 16)
        defer { control.deallocate() }
        control.initializeMemory(as: UInt8.self, repeating: 0)
        var vector = iovec(iov_base: UnsafeMutableRawPointer(buffer.bytes.baseAddress), iov_len: buffer.bytes.count)
        let (count, flags, sender) = withUnsafeMutablePointer(to: &vector) { vectorPointer in
            var message = msghdr()
            message.msg_iov = vectorPointer
            message.msg_iovlen = 1
            message.msg_control = control.baseAddress
            message.msg_controllen = control.count
            let count = SystemCall.retrying("recvmsg") {
                recvmsg(descriptor, &message, Int32(MSG_TRUNC) | Self.closeOnExecMessage)
            }
            let sender = count >= 0 ? Self.credentials(control, length: Int(message.msg_controllen)) : nil
            return (count, message.msg_flags, sender)
        }
        guard count >= 0 else { return nil }
        let truncated = flags & (Int32(MSG_TRUNC) | Int32(MSG_CTRUNC)) != 0
        guard !truncated, let sender, sender == 0 || sender == getuid() else { return nil }
        return .answer(buffer, count: count)
    }

    /// MSG_CMSG_CLOEXEC, which Glibc declares only for _GNU_SOURCE: a descriptor passed to us is not inherited.
    private static let closeOnExecMessage: Int32 = 0x4000_0000
    /// SCM_CREDENTIALS, likewise hidden behind _GNU_SOURCE.
    private static let credentialsType: Int32 = 2

    /// The sender's uid from the SCM_CREDENTIALS message (SO_PASSCRED: the kernel fills it, the sender cannot
    /// forge it); descriptors passed with SCM_RIGHTS are closed unused.
    private static func credentials(_ control: UnsafeMutableRawBufferPointer, length: Int) -> UInt32? {
        let header = MemoryLayout<cmsghdr>.size
        let dataOffset = (header + 7) & ~7
        var offset = 0
        var uid: UInt32?
        while offset + header <= min(length, control.count) {
            let entry = control.load(fromByteOffset: offset, as: cmsghdr.self)
            let entryLength = Int(entry.cmsg_len)
            guard entryLength >= header, offset + entryLength <= control.count else { break }
            if entry.cmsg_level == SOL_SOCKET, entry.cmsg_type == credentialsType, entryLength >= dataOffset + 12 {
                // struct ucred: pid, uid, gid.
                uid = control.load(fromByteOffset: offset + dataOffset + 4, as: UInt32.self)
            } else if entry.cmsg_level == SOL_SOCKET, entry.cmsg_type == Int32(SCM_RIGHTS) {
                for index in 0..<((entryLength - dataOffset) / 4) {
                    _ = Glibc.close(control.load(fromByteOffset: offset + dataOffset + 4 * index, as: Int32.self))
                }
            }
            offset += (entryLength + 7) & ~7
        }
        return uid
    }

    /// Removes the ask file first (agents stop asking), then the socket; idempotent.
    /// The corresponding C calls are `unlink` and `close`.
    public func withdraw() {
        if let askPath { _ = unlink(askPath) }
        askPath = nil
        if descriptor >= 0 { _ = unlink(socketPath) }
        close()
    }

    private func close() {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
        descriptor = -1
    }

    /// 16 hex digits from the kernel's random source, as systemd names its files (the name need not be secret, only
    /// new: `O_EXCL` and `bind` refuse one that exists). The corresponding C calls are `open` and `read`.
    private static func randomName() -> String {
        var value: UInt64 = 0
        let source = SystemCall.retrying("open") { Glibc.open("/dev/urandom", O_RDONLY | O_CLOEXEC) }
        let filled = source < 0 ? 0 : withUnsafeMutableBytes(of: &value) { Glibc.read(source, $0.baseAddress, 8) }
        if source >= 0 { _ = Glibc.close(source) }
        if filled != 8 { value = UInt64(bitPattern: MonotonicInstant.now.nanoseconds) ^ UInt64(getpid()) << 32 }
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The caller's end of the conversation when it is a pipe or a socket (ssh-agent reads an askpass's answer
    /// from one): its reader's going ends the wait. A terminal or a file says nothing of the caller.
    /// The corresponding C call is `fstat`.
    public static func callerPipes(_ descriptors: [Int32]) -> [Int32] {
        descriptors.filter { fd in
            var status = stat()
            guard fstat(fd, &status) == 0 else { return false }
            return status.st_mode & S_IFMT == S_IFIFO || status.st_mode & S_IFMT == S_IFSOCK
        }
    }
}
