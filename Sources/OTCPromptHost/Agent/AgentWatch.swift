// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptSystem

/// What the password agent waits on besides its directories (`DirectoryWatch`): the end of one request, as the
/// hang-up the prompt's loop already ends on.
///
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
    /// (`pid`, when `pidfd_open` is not there) is looked at once a second (`ProcessLiveness`). The corresponding C
    /// calls are `pipe` and `poll`.
    /// - Parameter fires: asked when a watched descriptor is readable; false keeps the relay waiting.
    public init(
        watching descriptors: [Int32], deadline: MonotonicInstant?, pollingProcess pid: Int32? = nil,
        firesWhen fires: (@Sendable () -> Bool)? = nil
    ) throws(HostError) {
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
                    if let pid, !ProcessLiveness.isRunning(pid) { return }
                }
            }
        } catch {
            // The relay is whole by now, so its deinit runs `stop()`, which closes `descriptor` and `stopWrite`:
            // closed here as well, either number could by then be another thread's new descriptor.
            close(relay.write)
            close(stop.read)
            throw HostError(error)
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
    /// `process` ends (a pidfd; looked at once a second without one) or at `deadline`. `process` is a PID that means
    /// something here (`ProcessLiveness.judge`); nil watches no process. Nil when the file is gone already.
    public static func request(path: String, process pid: Int32?, deadline: MonotonicInstant?) throws(HostError)
        -> HangUpRelay?
    {
        guard let removal = removalDescriptor(path) else { return nil }
        let process = pid.flatMap(ProcessLiveness.descriptor)
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
