import OTCPromptCore
import OTCPromptHost
import OTCPromptSystem
import OTCPromptTerminal

#if canImport(Glibc)
    import Glibc
#endif

/// What `--doctor` says of braille: which display `--braille` gives and why, the display itself when one is used
/// (asked of brltty without taking it), the tty it would take, and the key file libbrlapi authorises with.
public enum BrailleReport {
    /// The lines, for the prompt on the terminal open on `terminal` (its controlling terminal when nil).
    public static func lines(_ choice: BrailleChoice, environment: [String: String], terminal: Int32?) -> [String] {
        let (route, found) = BrailleRoute.probed(
            choice, location: LoginSession.locate(descriptor: terminal), environment: environment)
        var owner: UInt32?
        if case .uid(let uid)? = found?.owner { owner = uid }
        guard let address = route.address else { return ["Braille: none, because \(route.reason)."] }
        var lines = ["Braille: BrlAPI at \(address.readable), because \(route.reason)."]
        lines.append("Braille display: " + display(at: address, auth: environment["BRLAPI_AUTH"], owner: owner))
        let device = terminal.flatMap { TerminalDevices.device(descriptor: $0) } ?? TerminalDevices.controlling()
        switch BrailleTty.path(terminal: device, environment: environment) {
        case nil: lines.append("Braille tty: none: \(BrailleError.noTty).")
        case let path?:
            let session = environment["WINDOWPATH"].map { "below WINDOWPATH \($0), " } ?? ""
            let place = path.first.map { "tty \($0)" } ?? "the graphical session's console itself"
            lines.append("Braille tty: \(session)\(place).")
        }
        if let key = BrailleAddress.keyFile(auth: environment["BRLAPI_AUTH"]) {
            let readable = access(key, R_OK) == 0
            lines.append(
                "BrlAPI key file: \(key), "
                    + (readable ? "readable." : "not readable by you: a server that asks for it refuses you."))
        }
        return lines
    }

    /// Why an explicit `--braille brlapi` (or the file's `braille = brlapi`) cannot be honoured for the prompt on
    /// `terminal`, as one line to show and say with the opening: no server, one refused, or a terminal brltty would
    /// not show. nil when it can, or when the display was not asked for by name (`auto` stays silent).
    public static func notHonoured(_ choice: BrailleChoice, environment: [String: String], terminal: Int32?) -> String?
    {
        guard choice == .brlapi, let terminal else { return nil }
        let route = BrailleRoute.probed(
            choice, location: LoginSession.locate(descriptor: terminal), environment: environment
        ).route
        let why: String
        if route.address == nil {
            why = route.reason
        } else if BrailleTty.path(terminal: TerminalDevices.device(descriptor: terminal), environment: environment)
            == nil
        {
            why = "\(BrailleError.noTty)"
        } else {
            return nil
        }
        return "Braille display not used, though --braille brlapi asks for it: \(why)."
    }

    /// How long the report waits for brltty to answer (the connection, the display's size, its driver): a live one
    /// answers within milliseconds, and libbrlapi's own waits have no deadline.
    static let answerLimit: Duration = .seconds(1)

    /// The display's size and driver, asked on a thread of its own and waited for at most `answerLimit`: a brltty that
    /// accepts and never answers (stopped, or stuck) leaves that thread waiting, not `--doctor`.
    static func display(at address: BrailleAddress, auth: String?, owner: UInt32?) -> String {
        let limit = answerLimit
        let ask = { @Sendable () -> String in
            do {
                let connection = try BrailleConnection.open(address: address, auth: auth, owner: owner)
                defer { connection.close() }
                let cells = try connection.displaySize()
                return "\(cells) cells, brltty's \(connection.driverName() ?? "unknown") driver."
            } catch {
                return "not reached: \(error)."
            }
        }
        guard let task = try? BackgroundTask(ask) else { return ask() }  // no thread to be had
        switch task.wait(timeout: limit, signals: nil) {
        case .finished(let line): return line
        case .timedOut, .signal:
            let seconds = limit.components.seconds
            return "not reached: the BrlAPI server at \(address.readable) did not answer within \(seconds) s."
        }
    }
}
