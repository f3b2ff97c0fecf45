// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptSystem

/// What the password agent waits on, each as a descriptor `poll` can watch: the directories' changes
/// (`DirectoryWatch`, inotify) and the end of one request (`HangUpRelay`, which turns "the file is gone, the
/// process is gone, the time has passed" into the hang-up the prompt's loop already ends on).
///
/// `@unchecked Sendable`: one thread at a time reads it, the agent's or, while the agent waits, its relay's
/// (`HangUpRelay.stop()` waits for that thread before the agent reads again).
public final class DirectoryWatch: @unchecked Sendable {
    /// Readable when a watched directory changed.
    public let descriptor: Int32
    private var directories: [Int32: Int] = [:]
    /// Changes a relay's thread read while the agent waited, handed out first by `changes()`.
    private var pending: [Change] = []

    /// What changed in the directory at `directory` (an index into the paths watched).
    public enum Change: Equatable, Sendable {
        /// A file was written and closed, or moved in: a request, perhaps.
        case added(directory: Int, name: String)
        case removed(directory: Int, name: String)
        /// Events were lost (the kernel's queue overflowed): read the directories again.
        case lost
    }

    /// Watches `paths` for files closed after writing, moved in, removed or moved out. The corresponding C calls
    /// are `inotify_init1` and `inotify_add_watch`.
    public init(paths: [String]) throws(TerminalError) {
        descriptor = SystemCall.retrying("inotify_init1") { inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK)) }
        guard descriptor >= 0 else { throw .system(.current, call: "inotify_init1") }
        try watch(paths)
    }

    /// Takes over the watch a previous image of the agent handed over (`AgentRenewal`), with the events it has
    /// queued since: adding a path already watched gives back its watch, so each event maps to its directory
    /// again. The corresponding C calls are `fcntl` and `inotify_add_watch`.
    public init(adopting descriptor: Int32, paths: [String]) throws(TerminalError) {
        self.descriptor = descriptor
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        try watch(paths)
    }

    private func watch(_ paths: [String]) throws(TerminalError) {
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM | IN_ONLYDIR | IN_DONT_FOLLOW)
        for (index, path) in paths.enumerated() {
            let watch = SystemCall.retrying("inotify_add_watch") { inotify_add_watch(descriptor, path, mask) }
            // Not closed here: the instance is whole, and its deinit closes the descriptor (twice would close
            // whatever another thread opened under the same number meanwhile).
            guard watch >= 0 else { throw .system(.current, call: "inotify_add_watch") }
            directories[watch] = index
        }
    }

    deinit { close(descriptor) }

    /// The changes waiting, without blocking; empty when none. The corresponding C call is `read`.
    public func changes() -> [Change] {
        defer { pending = [] }
        return pending + readChanges()
    }

    /// Reads the changes waiting and keeps them for `changes()`; whether one may be a request to ask (an `ask.*`
    /// file added that `exists` still finds, or events lost). A relay's test: a socket made or a file removed
    /// does not end the agent's wait, which would say "Waiting for password requests" again for nothing; nor does
    /// the close of a file its querier has already removed (systemd-ask-password unlinks, then closes).
    public func keepChangesAndCheckForRequests(exists: (_ directory: Int, _ name: String) -> Bool) -> Bool {
        let read = readChanges()
        pending += read
        return read.contains {
            switch $0 {
            case .added(let directory, let name): name.hasPrefix("ask.") && exists(directory, name)
            case .lost: true
            case .removed: false
            }
        }
    }

    private func readChanges() -> [Change] {
        var changes: [Change] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in
                SystemCall.retrying("read") { Glibc.read(descriptor, raw.baseAddress, raw.count) }
            }
            guard count > 0 else { return changes }
            changes += Self.parse(buffer[..<count], directories: directories)
        }
    }

    /// `struct inotify_event` records: wd, mask, cookie, len, then len bytes of NUL-padded name.
    static func parse(_ bytes: ArraySlice<UInt8>, directories: [Int32: Int]) -> [Change] {
        var changes: [Change] = []
        var offset = bytes.startIndex
        func word(_ at: Int) -> UInt32 {
            bytes[at..<(at + 4)].enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
        }
        while offset + 16 <= bytes.endIndex {
            let watch = Int32(bitPattern: word(offset))
            let mask = word(offset + 4)
            let length = Int(word(offset + 12))
            guard offset + 16 + length <= bytes.endIndex else { break }
            let name = String(decoding: bytes[(offset + 16)..<(offset + 16 + length)].prefix { $0 != 0 }, as: UTF8.self)
            offset += 16 + length
            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                changes.append(.lost)
                continue
            }
            guard let directory = directories[watch], !name.isEmpty else { continue }
            if mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO) != 0 {
                changes.append(.added(directory: directory, name: name))
            }
            if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
                changes.append(.removed(directory: directory, name: name))
            }
        }
        return changes
    }
}

/// A pipe whose read end hangs up as soon as one of the descriptors watched becomes readable, or a deadline
/// passes: handed to the prompt as its caller (`PromptSystem.caller`), it ends a request's field at once when the
/// request is withdrawn, and the agent's wait when a request arrives. A thread of its own polls; `stop()` ends it
/// and waits for it, so no descriptor it watched is closed under it.
public final class HangUpRelay {
    /// Hands this to the prompt: it hangs up when the relay fires (or stops).
    public let descriptor: Int32
    private let stopWrite: Int32
    private var stopped = false
    /// Descriptors the relay made for itself (a pidfd, a file's watch), closed once its thread is done.
    private var owned: [Int32] = []

    /// Starts watching `descriptors` (readable ends the wait) until `deadline`; a process without a pidfd
    /// (`pid`, when `pidfd_open` is not there) is looked at once a second. The corresponding C calls are `pipe`,
    /// `poll` and `kill` (signal 0).
    /// - Parameter fires: asked when a watched descriptor is readable; false keeps the relay waiting.
    public init(
        watching descriptors: [Int32], deadline: MonotonicInstant?, pollingProcess pid: Int32? = nil,
        firesWhen fires: (@Sendable () -> Bool)? = nil
    ) throws(TerminalError) {
        let relay = try SystemCalls.wakeUpPipe()
        let stop: (read: Int32, write: Int32)
        do { stop = try SystemCalls.wakeUpPipe() } catch {
            close(relay.read)
            close(relay.write)
            throw error
        }
        descriptor = relay.read
        stopWrite = stop.write
        let watched = descriptors
        do {
            try DetachedThread.start {
                defer {
                    close(stop.read)
                    // The hang-up the prompt sees, and `stop()`'s sign that the thread is done.
                    close(relay.write)
                }
                var polled = watched.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
                polled.append(pollfd(fd: stop.read, events: Int16(POLLIN), revents: 0))
                while true {
                    var wait = deadline.map { MonotonicInstant.now.duration(to: $0) }
                    if let left = wait, left <= .zero { return }
                    if pid != nil { wait = min(wait ?? .seconds(1), .seconds(1)) }
                    let milliseconds = wait.map(\.pollTimeout) ?? -1
                    let ready = SystemCall.retrying("poll") { poll(&polled, nfds_t(polled.count), milliseconds) }
                    if ready > 0 {
                        // The stop pipe, a hang-up or an error ends the wait; readable data only when it counts.
                        if polled.contains(where: { $0.revents & ~Int16(POLLIN) != 0 }) { return }
                        if polled.last?.revents ?? 0 != 0 { return }
                        guard let fires, !fires() else { return }
                        for index in polled.indices { polled[index].revents = 0 }
                    } else if ready < 0 {
                        return
                    }
                    if let pid, kill(pid, 0) != 0, Errno.current.rawValue == ESRCH { return }
                }
            }
        } catch {
            close(relay.read)
            close(relay.write)
            close(stop.read)
            close(stop.write)
            throw TerminalError(error)
        }
    }

    /// Ends the thread, waits for it (at most a second: it wakes at once), and closes the relay.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        close(stopWrite)
        var done = pollfd(fd: descriptor, events: Self.readHangUp, revents: 0)
        _ = SystemCall.retrying("poll") { poll(&done, 1, 1000) }
        close(descriptor)
        for descriptor in owned { close(descriptor) }
    }

    /// The relay for one request being asked: it fires when the file at `path` is removed or moved away, when
    /// `pid` ends (a pidfd; `kill` once a second without one) or at `deadline`. Nil when the file is gone already.
    public static func request(path: String, pid: Int32?, deadline: MonotonicInstant?) throws(TerminalError)
        -> HangUpRelay?
    {
        guard let removal = removalDescriptor(path) else { return nil }
        let process = pid.flatMap(processDescriptor)
        let watched = [removal] + (process.map { [$0] } ?? [])
        let relay: HangUpRelay
        do {
            relay = try HangUpRelay(watching: watched, deadline: deadline, pollingProcess: process == nil ? pid : nil)
        } catch {
            for descriptor in watched { close(descriptor) }
            throw error
        }
        relay.owned = watched
        return relay
    }

    deinit { stop() }

    private static let readHangUp: Int16 = 0x2000

    /// A descriptor readable when `pid` has ended; nil where the kernel has no pidfd (before 5.3) or the
    /// process is already gone. The corresponding C call is `pidfd_open`.
    public static func processDescriptor(_ pid: Int32) -> Int32? {
        guard let pidfdOpen = Self.pidfdOpen else { return nil }
        let descriptor = SystemCall.retrying("pidfd_open") { pidfdOpen(pid, 0) }
        return descriptor >= 0 ? descriptor : nil
    }

    /// glibc's `pidfd_open` (2.36), which Glibc's module map does not declare, looked up when first needed: a
    /// direct reference would stop the binary from starting on an older glibc, where the agent watches a process
    /// with `kill` once a second instead.
    private static let pidfdOpen: (@convention(c) (pid_t, UInt32) -> Int32)? = {
        guard let symbol = dlsym(nil, "pidfd_open") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (pid_t, UInt32) -> Int32).self)
    }()

    /// Whether `pid` is running: a zombie is not (it has ended; its parent has not reaped it yet), as systemd's
    /// agents judge. The corresponding C calls are `pidfd_open` and `poll`, or `kill` (signal 0; EPERM means it
    /// runs) without a pidfd.
    public static func processExists(_ pid: Int32) -> Bool {
        if let descriptor = processDescriptor(pid) {
            defer { close(descriptor) }
            var polled = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            return SystemCall.retrying("poll") { poll(&polled, 1, 0) } == 0
        }
        return kill(pid, 0) == 0 || Errno.current.rawValue == EPERM
    }

    /// A file's removal, as a descriptor: readable once `path` is deleted or moved away. Nil when it is gone
    /// already. The corresponding C calls are `inotify_init1` and `inotify_add_watch`.
    public static func removalDescriptor(_ path: String) -> Int32? {
        let descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else { return nil }
        let mask = UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_DONT_FOLLOW)
        guard SystemCall.retrying("inotify_add_watch", { inotify_add_watch(descriptor, path, mask) }) >= 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }
}
