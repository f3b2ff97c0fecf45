import OTCPromptCore
import OTCPromptHost
import OTCPromptSystem
import OTCPromptTerminal

#if canImport(Glibc)
    import Glibc
#endif

/// The braille thread: decides whether the display may be used, connects, and then shows each view the loop posts
/// and hands back the keys typed on the display, until it is asked to close or brltty goes away.
final class BrailleWorker: @unchecked Sendable {
    private let mailbox: BrailleMailbox
    private let choice: BrailleChoice
    private let environment: [String: String]
    private let terminal: Int32
    /// Where the person typing is, as the voice's route found it.
    private let location: SessionLocation

    private var connection: BrailleConnection?
    private var width = 0
    private var held = false
    private var line: BrailleLine?
    private var start = 0
    private var shown: BrailleWindow?

    init(
        mailbox: BrailleMailbox, choice: BrailleChoice, location: SessionLocation, environment: [String: String],
        terminal: Int32
    ) {
        self.location = location
        self.mailbox = mailbox
        self.choice = choice
        self.environment = environment
        self.terminal = terminal
    }

    func run() {
        defer {
            connection?.close()
            connection = nil
            mailbox.end()
        }
        do {
            guard let (address, owner, path) = decide() else { return }
            let connection = try BrailleConnection.open(
                address: address, auth: environment["BRLAPI_AUTH"], owner: owner)
            self.connection = connection
            width = try connection.displaySize()
            try serve(connection, path: path)
        } catch {
            SystemLog.warning("braille: \(error)")
        }
    }

    /// The route and the tty, nil when the display is not to be used (said in the system log when that is news: a
    /// server refused, or one chosen that is not there).
    private func decide() -> (BrailleAddress, UInt32?, [Int32])? {
        let (route, found) = BrailleRoute.probed(choice, location: location, environment: environment)
        var owner: UInt32?
        if case .uid(let uid)? = found?.owner { owner = uid }
        let serverFound = found.map { $0.owner != nil || $0.problem != nil } ?? false
        guard let address = route.address else {
            if choice == .brlapi || serverFound { SystemLog.warning("braille: \(route.reason)") }
            return nil
        }
        guard
            let path = BrailleTty.path(terminal: TerminalDevices.device(descriptor: terminal), environment: environment)
        else {
            SystemLog.warning("braille: \(BrailleError.noTty)")
            return nil
        }
        return (address, owner, path)
    }

    /// Shows views and takes keys until asked to close, or until the server goes.
    private func serve(_ connection: BrailleConnection, path: [Int32]) throws(BrailleError) {
        while true {
            let asked = mailbox.take()
            if asked.close {
                if held { connection.leave() }
                return
            }
            // A view posted before the release is shown first: the last key's, when the prompt ends.
            if let view = asked.view {
                if !held {
                    try connection.enter(path: path)
                    held = true
                }
                let new = BrailleLine(view)
                if new != line {
                    line = new
                    start = new.start(width: width)
                }
                try show()
            }
            if let generation = asked.release {
                if held { connection.leave() }
                held = false
                shown = nil
                mailbox.acknowledgeRelease(generation)
            }
            if held {
                guard let codes = connection.readKeys() else { return }
                try take(codes)
            }
            guard wait(connection) else { return }
        }
    }

    /// Writes the window at `start` unless the display shows it already.
    private func show() throws(BrailleError) {
        guard let line, let connection else { return }
        let window = line.window(start: start, width: width)
        guard window != shown else { return }
        try connection.write(window)
        shown = window
    }

    /// Pans for the display's own keys, and hands the others to the loop.
    private func take(_ codes: [UInt64]) throws(BrailleError) {
        var keys: [Key] = []
        for code in codes {
            switch BrailleKeyCode.decode(code) {
            case .key(let key)?: keys.append(key)
            case .pan(let pan)?:
                if let line { start = line.start(afterPanning: pan, from: start, width: width) }
                try show()
            case nil: break
            }
        }
        mailbox.deliver(keys)
    }

    /// Waits for the loop or for the display; false once the server has closed the connection.
    /// The corresponding C function is `poll`.
    private func wait(_ connection: BrailleConnection) -> Bool {
        var descriptors = [pollfd(fd: mailbox.wake.read, events: Int16(POLLIN), revents: 0)]
        if held { descriptors.append(pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0)) }
        _ = SystemCall.retrying("poll") { poll(&descriptors, nfds_t(descriptors.count), -1) }
        _ = BrailleMailbox.drain(mailbox.wake.read)
        let hangUp = Int16(POLLHUP | POLLERR)
        return descriptors.count < 2 || descriptors[1].revents & hangUp == 0
    }
}
