// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptCore
import OTCPromptSystem

/// The project's one rule for whether the process behind a request is still there: the agent's (a request whose
/// querier is gone is not asked, and one being asked is withdrawn when it ends) and the poster's (only its own
/// leftovers are removed).
///
/// A PID is a number in one PID namespace, and may be taken again once its process has ended. So a process is
/// judged only where its PID means something: a request marked by otc-prompt's poster (`AskFile.Poster`: its
/// namespace, PID and start time) only in that namespace, and there only while that PID still has that start time;
/// one with a bare `PID=` (systemd's queriers) as systemd's own agents judge it, in the agent's namespace. A process
/// that has ended but is not yet reaped (a zombie) is gone: its pidfd is readable.
public enum ProcessLiveness {
    /// What is known of a request's process.
    public enum Verdict: Equatable, Sendable {
        case running
        case gone
        /// Nothing can be known here: no PID, or one of another PID namespace. Only the file's removal or its time
        /// limit ends such a request, and no poster removes it.
        case unknowable
    }

    /// This process's mark, for a request it posts; nil where /proc cannot say (then no reader can judge it, and
    /// none removes it). The corresponding C calls are `stat` (/proc/self/ns/pid) and `open` and `read`
    /// (/proc/self/stat).
    public static func ownMark() -> AskFile.Poster? {
        guard let namespace = ownNamespace, let start = startTime(of: "self") else { return nil }
        return AskFile.Poster(namespace: namespace, pid: getpid(), start: start)
    }

    /// The process named by a request: `mark` when otc-prompt posted it, else its bare `PID=`.
    public static func judge(pid: Int32?, mark: AskFile.Poster?) -> Verdict {
        if let mark {
            guard let namespace = ownNamespace, namespace == mark.namespace else { return .unknowable }
            guard isRunning(mark.pid) else { return .gone }
            // The same PID with another start time is another process: the poster has gone. Read only from a /proc
            // of this namespace's (mounted for another, it would name another process by that number).
            if procIsThisNamespaces, let start = startTime(of: String(mark.pid)), start != mark.start { return .gone }
            return .running
        }
        guard let pid, pid > 0 else { return .unknowable }
        return isRunning(pid) ? .running : .gone
    }

    /// Whether `pid` (of this namespace) runs: a zombie does not. The corresponding C calls are `pidfd_open` and
    /// `poll`, or, where the kernel has no pidfd, `kill` (signal 0; EPERM: it runs, as another user's) and a read of
    /// its state in /proc.
    public static func isRunning(_ pid: Int32) -> Bool {
        if let descriptor = descriptor(of: pid) {
            defer { close(descriptor) }
            var polled = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            return SystemCall.retrying("poll") { poll(&polled, 1, 0) } == 0
        }
        guard kill(pid, 0) == 0 || Errno.current.rawValue == EPERM else { return false }
        return !(procIsThisNamespaces && state(of: String(pid)) == "Z")
    }

    /// A descriptor readable once `pid` has ended, for a wait; nil where the kernel has no pidfd (before 5.3) or
    /// the process is gone. The corresponding C call is `pidfd_open`.
    public static func descriptor(of pid: Int32) -> Int32? {
        guard let pidfdOpen else { return nil }
        let descriptor = SystemCall.retrying("pidfd_open") { pidfdOpen(pid, 0) }
        return descriptor >= 0 ? descriptor : nil
    }

    /// glibc's `pidfd_open` (2.36), which Glibc's module map does not declare, looked up when first needed: a
    /// direct reference would stop the binary from starting on an older glibc.
    private static let pidfdOpen: (@convention(c) (pid_t, UInt32) -> Int32)? = {
        guard let symbol = dlsym(nil, "pidfd_open") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (pid_t, UInt32) -> Int32).self)
    }()

    /// The inode of this process's PID namespace.
    private static var ownNamespace: UInt64? {
        var status = stat()
        guard stat("/proc/self/ns/pid", &status) == 0 else { return nil }
        return UInt64(status.st_ino)
    }

    /// Whether the /proc mounted here is of this process's PID namespace: its `self` is this PID.
    private static var procIsThisNamespaces: Bool {
        var buffer = [CChar](repeating: 0, count: 32)
        let count = readlink("/proc/self", &buffer, buffer.count - 1)
        guard count > 0 else { return false }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) == String(getpid())
    }

    /// Field 22 of /proc/NAME/stat: when the process started, in clock ticks since boot.
    static func startTime(of name: String) -> UInt64? {
        fieldsAfterCommand(of: name).flatMap { $0.count > 19 ? UInt64($0[19]) : nil }
    }

    /// Field 3 of /proc/NAME/stat: R, S, Z…
    private static func state(of name: String) -> Substring? {
        fieldsAfterCommand(of: name)?.first
    }

    /// The fields of /proc/NAME/stat after the command's name (which may hold spaces and parentheses): the state
    /// first.
    private static func fieldsAfterCommand(of name: String) -> [Substring]? {
        guard let bytes = ProcessTable.contents(of: "/proc/\(name)/stat") else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].split(separator: " ")
    }
}
