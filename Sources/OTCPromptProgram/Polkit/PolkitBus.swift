import Glibc
import OTCPromptCore
import OTCPromptHost
import OTCPromptSystem

/// polkit's authentication agent on the system bus, through sd-bus: registered for a subject, its object
/// answering `BeginAuthentication` (replied once the request is done) and `CancelAuthentication`.
///
/// The bus is one thread's (sd-bus is not thread-safe): it sleeps in `poll` on the bus, a wake-up pipe and the
/// served process's pidfd, with sd-bus's own timeout (none while idle), so the agent never wakes with nothing to do.
/// Requests go to the asking thread through `next()`; its replies come back through `reply(_:_:)`.
final class PolkitBus: @unchecked Sendable {
    static let objectPath = "/org/freedesktop/PolicyKit1/AuthenticationAgent"
    static let interface = "org.freedesktop.PolicyKit1.AuthenticationAgent"
    static let cancelledError = "org.freedesktop.PolicyKit1.Error.Cancelled"
    static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"

    let functions: SDBusFunctions
    private let bus: OpaquePointer
    private let lock = ConditionLock()
    /// Requests not asked yet, oldest first.
    private var queue: [PolkitPending] = []
    private var outbox: [(PolkitPending, PolkitConversation.Result)] = []
    /// Why the agent ends (the bus closed, the served process ended); nil while it runs.
    private var ending: String?
    private let wakeUp: (read: Int32, write: Int32)
    /// The unique name of polkitd's connection, read once the agent registered: only its calls are answered.
    private var authority: String?

    /// Connects to the system bus and exports the agent's object.
    /// The corresponding C functions are `sd_bus_open_system` and `sd_bus_add_object`.
    init() throws(PolkitAgentError) {
        switch SDBusFunctions.loaded {
        case .success(let loaded): functions = loaded
        case .failure(let error): throw .library(error.reason)
        }
        var opened: OpaquePointer?
        let status = functions.openSystem(&opened)
        guard status >= 0, let opened else { throw .bus("cannot connect to the system bus", Errno(rawValue: -status)) }
        bus = opened
        do { wakeUp = try SystemCall.wakeUpPipe() } catch { throw .bus("cannot make a pipe", error.errno) }
        let added = functions.addObject(
            bus, nil, Self.objectPath,
            { message, userData, _ in
                guard let userData else { return 0 }
                return Unmanaged<PolkitBus>.fromOpaque(userData).takeUnretainedValue().handle(message)
            }, Unmanaged.passUnretained(self).toOpaque())
        guard added >= 0 else { throw .bus("cannot export the agent's object", Errno(rawValue: -added)) }
    }

    /// Registers the agent for `subject` with polkitd, in `locale` (the action's messages come in it).
    /// The corresponding C function is `sd_bus_call`.
    func register(_ subject: PolkitSubject, locale: String) throws(PolkitAgentError) {
        var message: OpaquePointer?
        var status = functions.newMethodCall(
            bus, &message, "org.freedesktop.PolicyKit1", "/org/freedesktop/PolicyKit1/Authority",
            "org.freedesktop.PolicyKit1.Authority", "RegisterAuthenticationAgent")
        guard status >= 0, let message else { throw .bus("cannot make the registration", Errno(rawValue: -status)) }
        defer { _ = functions.messageUnref(message) }
        let writer = BusMessageWriter(functions: functions, message: message)
        writer.subject(subject)
        writer.string(locale)
        writer.string(Self.objectPath)
        let error = SDBusError()
        status = functions.call(bus, message, 0, error.raw, nil)
        guard status >= 0 else { throw .registration(error.description) }
        // Without it every call but root's would be refused, silently; polkitd need not run as root (Debian's runs
        // as polkitd). So the agent says so and ends now rather than refusing every request later.
        authority = try owner(of: PolkitBusTrust.authorityName)
    }

    /// The unique name that owns `name` now.
    /// The corresponding C functions are `sd_bus_get_name_creds` and `sd_bus_creds_get_unique_name`.
    private func owner(of name: String) throws(PolkitAgentError) -> String {
        var creds: OpaquePointer?
        let status = functions.getNameCreds(bus, name, SDBusFunctions.credsUniqueName, &creds)
        guard status >= 0, let creds else {
            throw .bus("cannot tell which connection is polkitd (\(name)'s owner)", Errno(rawValue: -status))
        }
        defer { _ = functions.credsUnref(creds) }
        var unique: UnsafePointer<CChar>?
        let read = functions.credsGetUniqueName(creds, &unique)
        guard read >= 0, let unique else {
            throw .bus("cannot tell which connection is polkitd (\(name)'s owner)", Errno(rawValue: -read))
        }
        return String(cString: unique)
    }

    /// Whether `message` comes from polkitd (`PolkitBusTrust`): its sender owned polkit's name when the agent
    /// registered, or runs as root. The corresponding C functions are `sd_bus_message_get_sender`,
    /// `sd_bus_query_sender_creds` and `sd_bus_creds_get_euid`.
    private func fromAuthority(_ message: OpaquePointer?) -> Bool {
        let sender = functions.getSender(message).map { String(cString: $0) }
        return PolkitBusTrust.accepts(sender: sender, authority: authority) {
            var creds: OpaquePointer?
            guard functions.querySenderCreds(message, SDBusFunctions.credsEUID, &creds) >= 0, let creds else {
                return nil
            }
            defer { _ = functions.credsUnref(creds) }
            var uid: uid_t = 0
            return functions.credsGetEUID(creds, &uid) >= 0 ? uid : nil
        }
    }

    /// Starts the bus's thread; it ends the agent (`next()` returns nil) when `served` (a pidfd) becomes readable.
    func start(endingWith served: Int32?) throws(PolkitAgentError) {
        do {
            try DetachedThread.start { [self] in run(served: served) }
        } catch {
            throw .bus("cannot start the bus's thread", error.errno)
        }
    }

    /// The next request to ask, waiting as long as it takes (no timeout: nothing wakes the agent while idle); nil
    /// once the agent ends.
    func next() -> PolkitPending? {
        lock.withLock {
            while queue.isEmpty && ending == nil { lock.wait() }
            guard ending == nil else { return nil }
            // Handed over and findable by a CancelAuthentication in one step.
            let pending = queue.removeFirst()
            asked.append(pending)
            return pending
        }
    }

    /// Why the agent ended, once `next()` returned nil.
    var endReason: String? { lock.withLock { ending } }
    /// The agent ended because the bus went: it cannot be reached any more, and says so with a failing status.
    var lostTheBus: Bool { lock.withLock { busLost } }
    private var busLost = false

    /// Replies to `pending`'s BeginAuthentication, once: a second reply (Esc said at once, then the field's end)
    /// does nothing. From any thread; the bus's thread sends it.
    func reply(_ pending: PolkitPending, _ result: PolkitConversation.Result) {
        let first = lock.withLock { () -> Bool in
            guard !pending.replied else { return false }
            pending.replied = true
            outbox.append((pending, result))
            return true
        }
        if first { PipeSignal.wake(wakeUp.write) }
    }

    // MARK: The bus's thread

    private func run(served: Int32?) {
        while true {
            let replies = lock.withLock { () -> [(PolkitPending, PolkitConversation.Result)] in
                defer { outbox = [] }
                return outbox
            }
            for (pending, result) in replies { send(result, to: pending) }
            let processed = functions.process(bus, nil)
            if processed < 0 { return end("the system bus closed the connection", lost: true) }
            if processed > 0 { continue }
            var timeout: UInt64 = .max
            _ = functions.getTimeout(bus, &timeout)
            var descriptors = [
                pollfd(
                    fd: functions.getFD(bus), events: Int16(truncatingIfNeeded: functions.getEvents(bus)), revents: 0),
                pollfd(fd: wakeUp.read, events: Int16(POLLIN), revents: 0),
                pollfd(fd: served ?? -1, events: Int16(POLLIN), revents: 0),
            ]
            let wait = Self.pollTimeout(untilMicroseconds: timeout)
            _ = SystemCall.retrying("poll") { poll(&descriptors, nfds_t(descriptors.count), wait) }
            if descriptors[1].revents != 0 { PipeSignal.drain(wakeUp.read) }
            if descriptors[2].revents != 0 { return end("the process it served ended") }
        }
    }

    /// poll's timeout for sd-bus's deadline (CLOCK_MONOTONIC µs; `UInt64.max`: none).
    private static func pollTimeout(untilMicroseconds deadline: UInt64) -> Int32 {
        guard deadline != .max else { return -1 }
        let now = UInt64(clamping: MonotonicInstant.now.nanoseconds / 1000)
        return deadline <= now ? 0 : Int32(clamping: (deadline - now + 999) / 1000)
    }

    private func end(_ reason: String, lost: Bool = false) {
        lock.withLock {
            ending = reason
            busLost = lost
            lock.broadcast()
        }
    }

    /// A method call on the agent's object: 1 when handled (replied now, or later for BeginAuthentication); a call
    /// not from polkitd is refused with AccessDenied, and logged.
    private func handle(_ message: OpaquePointer?) -> Int32 {
        let ours =
            functions.isMethodCall(message, Self.interface, "BeginAuthentication") > 0
            || functions.isMethodCall(message, Self.interface, "CancelAuthentication") > 0
        if ours && !fromAuthority(message) {
            let sender = functions.getSender(message).map { String(cString: $0) } ?? "no sender"
            SystemLog.warning("the polkit agent refused a call from \(sender), which is not polkitd")
            let error = SDBusError(name: Self.accessDenied, message: "Only polkitd may call the agent")
            _ = functions.replyMethodError(message, error.raw)
            return 1
        }
        if functions.isMethodCall(message, Self.interface, "BeginAuthentication") > 0 {
            guard let request = BusMessageReader(functions: functions, message: message).beginAuthentication(),
                let withdrawal = try? SystemCall.wakeUpPipe()
            else { return 0 }
            let pending = PolkitPending(request: request, call: functions.messageRef(message)!, withdrawal: withdrawal)
            lock.withLock {
                queue.append(pending)
                lock.broadcast()
            }
            return 1
        }
        if functions.isMethodCall(message, Self.interface, "CancelAuthentication") > 0 {
            let cookie = BusMessageReader(functions: functions, message: message).string() ?? ""
            let queued = lock.withLock { () -> PolkitPending? in
                if let index = queue.firstIndex(where: { $0.request.cookie == cookie }) {
                    let pending = queue.remove(at: index)
                    pending.replied = true
                    return pending
                }
                return nil
            }
            if let queued { send(.cancelled, to: queued) }
            // The one being asked: its field and helper see the pipe hang up, and it replies as cancelled.
            lock.withLock { pendingAsked(cookie: cookie)?.withdraw() }
            var reply: OpaquePointer?
            if functions.newMethodReturn(message, &reply) >= 0 {
                _ = functions.send(bus, reply, nil)
                _ = functions.messageUnref(reply)
            }
            return 1
        }
        return 0
    }

    /// Requests handed to the asking thread and not yet replied to, by cookie.
    private var asked: [PolkitPending] = []
    private func pendingAsked(cookie: String) -> PolkitPending? {
        asked.first { $0.request.cookie == cookie && !$0.replied }
    }

    /// The reply to `pending`'s call; its withdrawal pipe's writing end closed, its call released.
    /// The corresponding C functions are `sd_bus_send` and `sd_bus_reply_method_error`.
    private func send(_ result: PolkitConversation.Result, to pending: PolkitPending) {
        switch result {
        case .authenticated, .failed:
            var reply: OpaquePointer?
            if functions.newMethodReturn(pending.call, &reply) >= 0 {
                _ = functions.send(bus, reply, nil)
                _ = functions.messageUnref(reply)
            }
        case .cancelled:
            let error = SDBusError(name: Self.cancelledError, message: "Authentication was cancelled")
            _ = functions.replyMethodError(pending.call, error.raw)
        }
        _ = functions.messageUnref(pending.call)
        lock.withLock {
            pending.withdraw()
            asked.removeAll { $0 === pending }
        }
    }
}

/// One BeginAuthentication polkitd waits on: the request, its call held for the reply, and the pipe whose hang-up
/// withdraws it (`CancelAuthentication`) from the field and the helper.
final class PolkitPending: @unchecked Sendable {
    let request: PolkitRequest
    fileprivate let call: OpaquePointer
    /// Watched by the asking thread; its writing end is closed when the request is withdrawn or replied to.
    let withdrawal: (read: Int32, write: Int32)
    /// Set under the bus's lock.
    fileprivate var replied = false
    private var writeOpen = true

    fileprivate init(request: PolkitRequest, call: OpaquePointer, withdrawal: (read: Int32, write: Int32)) {
        self.request = request
        self.call = call
        self.withdrawal = withdrawal
    }

    /// Closes the writing end, once (under the bus's lock).
    fileprivate func withdraw() {
        guard writeOpen else { return }
        writeOpen = false
        close(withdrawal.write)
    }
}
