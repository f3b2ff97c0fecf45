// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptSystem

/// The two places that say a security key waits for a touch, watched in the user's runtime directory: pam_u2f's
/// pending file (`authpending_file`, which pam_u2f holds open, O_RDONLY|O_CREAT, while it waits) and
/// yubikey-touch-detector's socket. What they mean is `TouchWatchModel`'s; this reports what happened.
///
/// The file is watched itself for its opens and closes, and the directory for the two names' creation and removal
/// only: so the file's removal and re-creation, and the detector's restart (its socket made again), are seen, while
/// the directory's other files never wake the watcher. Nothing is polled: idle, its descriptors stay quiet.
///
/// Nothing planted by someone else is believed: the directory must be the user's and writable by no one else, the
/// pending file a regular file of the user's or root's (pam_u2f runs as root under sudo), the socket the user's,
/// and the process on its other end the user's too (SO_PEERCRED).
public final class TouchSignalWatch {
    /// What happened, in the order it was read.
    public enum Happening: Equatable, Sendable {
        case pendingFileOpened
        case pendingFileClosed
        /// The file was made: by pam_u2f's open, which the watch on the file came too late to see.
        case pendingFileCreated
        /// The file was removed or moved away, or the kernel's queue overflowed: no open of it can be counted on.
        case pendingFileForgotten
        case detectorConnected
        case detectorBytes([UInt8])
        case detectorLost
        /// A place that is not to be believed, and why (said once per cause by the caller).
        case refused(String)
        /// The runtime directory itself went away (the user's last session ended).
        case directoryGone
    }

    public let directory: String
    public let pendingFile: String
    public let detectorSocket: String
    private let user: uid_t
    /// The inotify instance: readable when something changed.
    private let inotify: Int32
    private var directoryWatch: Int32 = -1
    private var fileWatch: Int32 = -1
    private var detector: LocalSocket?
    /// When the detector was last connected: a connection that ends at once is not tried again until its socket is
    /// made anew, so a detector that closes every connection cannot keep the watcher busy.
    private var connectedAt: MonotonicInstant?
    private var queued: [Happening] = []

    public static let pendingFileName = "pam-u2f-authpending"
    public static let detectorSocketName = "yubikey-touch-detector.socket"

    /// Watches `directory` (the user's `XDG_RUNTIME_DIR`), its pending file if it is there, and connects to the
    /// detector if it listens. The corresponding C calls are `inotify_init1` and `inotify_add_watch`.
    public init(directory: String, user: uid_t = getuid()) throws(HostError) {
        self.directory = directory
        self.user = user
        pendingFile = directory + "/" + Self.pendingFileName
        detectorSocket = directory + "/" + Self.detectorSocketName
        do { try FileTrust.ownDirectory(user).check(path: directory) } catch {
            throw .untrustedFile(path: directory, option: "XDG_RUNTIME_DIR", error)
        }
        inotify = SystemCall.retrying("inotify_init1") { inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK)) }
        guard inotify >= 0 else { throw .system(.current, call: "inotify_init1") }
        let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM | IN_DELETE_SELF | IN_MOVE_SELF)
        directoryWatch = SystemCall.retrying("inotify_add_watch") {
            inotify_add_watch(inotify, directory, mask | UInt32(IN_ONLYDIR | IN_DONT_FOLLOW))
        }
        guard directoryWatch >= 0 else {
            let failure = Errno.current
            _ = Glibc.close(inotify)
            throw .system(failure, call: "inotify_add_watch")
        }
        watchPendingFile()
        connectDetector()
    }

    deinit {
        detector?.close()
        _ = Glibc.close(inotify)
    }

    /// The descriptors a `poll` waits on: the inotify instance, and the detector's connection while there is one.
    public var descriptors: [Int32] { [inotify] + (detector?.readableDescriptor.map { [$0] } ?? []) }

    /// Whether the detector is connected now.
    public var detectorIsConnected: Bool { detector != nil }

    /// Whether the pending file is watched now.
    public var pendingFileIsWatched: Bool { fileWatch >= 0 }

    /// Why `wait` returned.
    public enum Wake: Equatable, Sendable {
        case signal
        case happened
        case timedOut
    }

    /// Waits for a signal (`signals`, a `SignalWatcher`'s pipe) or something to read, at most `timeout` (nil: with no
    /// deadline, since idle nothing is to be done). The corresponding C call is `poll`.
    /// - Parameter also: more descriptors to wake on (a voice's news), reported as `happened`.
    public func wait(signals: Int32, timeout: Duration?, also: [Int32] = []) -> Wake {
        var entries = ([signals] + descriptors + also).map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let milliseconds = timeout.map { $0.pollTimeout } ?? -1
        let ready = entries.withUnsafeMutableBufferPointer { buffer in
            SystemCall.retrying("poll") { poll(buffer.baseAddress, nfds_t(buffer.count), milliseconds) }
        }
        if ready <= 0 { return ready == 0 ? .timedOut : .happened }
        return entries[0].revents != 0 ? .signal : .happened
    }

    /// What happened since the last call, without waiting. The corresponding C calls are `read` and `poll`.
    public func happenings() -> [Happening] {
        readDetector()
        readInotify()
        defer { queued = [] }
        return queued
    }

    private func watchPendingFile() {
        do {
            try FileTrust(kinds: [.regularFile], owners: [user, 0], othersMay: .anything).check(path: pendingFile)
        } catch {
            if case .unexaminable = error { return }
            queued.append(.refused("\(pendingFile): \(error)"))
            return
        }
        let mask = UInt32(IN_OPEN | IN_CLOSE_WRITE | IN_CLOSE_NOWRITE | IN_DONT_FOLLOW)
        let watch = SystemCall.retrying("inotify_add_watch") { inotify_add_watch(inotify, pendingFile, mask) }
        if watch >= 0 { fileWatch = watch }
    }

    /// - Parameter justMade: the socket was just made: the detector binds it before it listens, so a refusal is
    ///   tried again (every 20 ms, for at most a second) rather than taken as a detector gone.
    private func connectDetector(justMade: Bool = false) {
        guard detector == nil else { return }
        if let why = LocalSocket.foreignOwner(of: detectorSocket, uid: user) {
            return queued.append(.refused("\(detectorSocket): \(why)"))
        }
        guard
            let socket = try? LocalSocket.connect(
                path: detectorSocket, timeout: justMade ? .seconds(1) : .milliseconds(200), waitingForListener: justMade
            )
        else { return }
        guard let peer = socket.peerUID, peer == user else {
            socket.close()
            let who = socket.peerUID.map { "uid \($0)" } ?? "no one the kernel names"
            return queued.append(.refused("\(detectorSocket): its listener is \(who), not you (uid \(user))"))
        }
        detector = socket
        connectedAt = .now
        queued.append(.detectorConnected)
    }

    private func readDetector() {
        guard let socket = detector, socket.hasInput else { return }
        do {
            while socket.hasInput { queued.append(.detectorBytes(try socket.receive(timeout: .zero))) }
        } catch {
            socket.close()
            detector = nil
            queued.append(.detectorLost)
            // Restarted behind a socket that stays (systemd's socket unit): connected again at once. A connection
            // that lasted under a second waits for the socket to be made anew.
            if let connectedAt, MonotonicInstant.now - connectedAt > .seconds(1) { connectDetector() }
        }
    }

    private func readInotify() {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in
                SystemCall.retrying("read") { Glibc.read(inotify, raw.baseAddress, raw.count) }
            }
            guard count > 0 else { return }
            var offset = 0
            while offset + 16 <= count {
                let (watch, mask, length) = buffer.withUnsafeBytes { raw in
                    (
                        raw.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                        raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                        Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    )
                }
                let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                offset += 16 + length
                handle(watch: watch, mask: mask, name: String(decoding: nameBytes, as: UTF8.self))
            }
        }
    }

    private func handle(watch: Int32, mask: UInt32, name: String) {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            queued.append(.pendingFileForgotten)
            if fileWatch < 0 { watchPendingFile() }
            return connectDetector()
        }
        if watch == fileWatch {
            if mask & UInt32(IN_OPEN) != 0 { queued.append(.pendingFileOpened) }
            if mask & UInt32(IN_CLOSE_WRITE | IN_CLOSE_NOWRITE) != 0 { queued.append(.pendingFileClosed) }
            if mask & UInt32(IN_IGNORED) != 0 { fileWatch = -1 }
            return
        }
        guard watch == directoryWatch else { return }
        if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 { return queued.append(.directoryGone) }
        let made = mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0
        switch name {
        case Self.pendingFileName where made:
            // A new file is a new watch: the old one (moved away, or removed but still open) says nothing more.
            if fileWatch >= 0 { _ = inotify_rm_watch(inotify, fileWatch) }
            fileWatch = -1
            watchPendingFile()
            if mask & UInt32(IN_CREATE) != 0 && fileWatch >= 0 { queued.append(.pendingFileCreated) }
        case Self.pendingFileName:
            if fileWatch >= 0 { _ = inotify_rm_watch(inotify, fileWatch) }
            fileWatch = -1
            queued.append(.pendingFileForgotten)
        case Self.detectorSocketName where made:
            // A socket made anew is a detector started anew: a connection still open is to the one before it,
            // whose end may not have been read yet, so it is let go first rather than kept as the live one.
            if let stale = detector {
                stale.close()
                detector = nil
                queued.append(.detectorLost)
            }
            connectDetector(justMade: true)
        default: break
        }
    }
}
