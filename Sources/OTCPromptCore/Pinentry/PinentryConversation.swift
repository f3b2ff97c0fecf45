/// The pinentry side of an Assuan conversation with gpg-agent, as pure state: request lines in,
/// reply lines out, and the dialogs (GETPIN, CONFIRM, MESSAGE) handed to the caller to run.
///
/// The replies are pinentry 1.2's, byte for byte where they do not name this program (see
/// Tests/OTCPromptEndToEndTests/PinentryComparisonTests.swift, which runs both).
public struct PinentryConversation: Sendable {
    /// What the caller must do after a line.
    public enum Step: Equatable, Sendable {
        /// Write these lines (each followed by a line feed).
        case reply([String])
        /// Run this dialog, then pass its result to `finish(_:)` and write what it returns.
        case dialog(PinentryRequest)
        /// Write these lines and end the conversation (BYE).
        case close([String])
    }

    /// How a dialog ended.
    public enum DialogResult: Equatable, Sendable {
        /// A PIN or passphrase was entered (and, with SETREPEAT, entered twice the same).
        case entered(repeated: Bool)
        case confirmed
        case notConfirmed
        /// Esc, Ctrl-C, or the terminal went away.
        case cancelled
        case timedOut
        /// A signal ended the dialog: the reply says so and the conversation ends (`DialogReply.closes`).
        case interrupted
        /// The dialog could not run: the terminal named by `OPTION ttyname` (or, without one, any
        /// terminal) could not be opened. `location` is said in the "S ERROR" status line.
        case terminalUnusable(errno: Int32, location: String)
    }

    /// The reply to a finished dialog. For an entered PIN the caller writes the status lines,
    /// the PIN's data lines (`AssuanEscaping.writeDataLines`), then `last`.
    public struct DialogReply: Equatable, Sendable {
        public var status: [String]
        public var sendsSecret: Bool
        public var last: String
        /// End the conversation after this reply, as libassuan's ASSUAN_FORCE_CLOSE does.
        public var closes = false
    }

    /// What GETINFO reports about this process.
    public struct Identity: Sendable {
        public var version: String
        public var pid: Int32
        public var flavor: String
        /// "mode/uid/gid" of a device in octal/decimal, "?" when it cannot be read.
        public var deviceStatus: @Sendable (String) -> String
        /// "euid/egid".
        public var userIDs: String

        public init(
            version: String, pid: Int32, flavor: String, deviceStatus: @escaping @Sendable (String) -> String,
            userIDs: String
        ) {
            self.version = version
            self.pid = pid
            self.flavor = flavor
            self.deviceStatus = deviceStatus
            self.userIDs = userIDs
        }
    }

    public static let greeting = "OK Pleased to meet you"
    /// Status-error lines name the program as pinentry's do ("curses.isatty").
    static let statusName = "otc"

    public private(set) var state = PinentryState()
    let identity: Identity
    private var pending: PinentryRequest?

    public init(identity: Identity) {
        self.identity = identity
    }

    /// Handles one request line (without its line feed). nil for a line libassuan ignores.
    public mutating func receive(_ bytes: some Collection<UInt8>) -> Step? {
        let line: AssuanLine
        do {
            guard let parsed = try AssuanLine.parse(bytes) else { return nil }
            line = parsed
        } catch {
            return .reply([error.line])
        }
        switch handle(line) {
        case .success(let step): return step
        case .failure(let error): return .reply([error.line])
        }
    }

    private mutating func handle(_ line: AssuanLine) -> Result<Step, AssuanError> {
        let text = AssuanEscaping.decode(line.argument)
        let value: String? = text.isEmpty ? nil : text
        switch line.command {
        case "SETDESC": state.description = value
        case "SETPROMPT": state.prompt = value
        case "SETTITLE": state.title = value
        case "SETERROR": state.error = value
        case "SETOK": state.okLabel = value
        case "SETCANCEL": state.cancelLabel = value
        case "SETNOTOK": state.notOKLabel = value
        case "SETREPEAT": state.repeatPrompt = text
        case "SETREPEATERROR": state.repeatError = value
        case "SETKEYINFO": state.keyInfo = line.argument.isEmpty || line.argument == "--clear" ? nil : line.argument
        case "SETQUALITYBAR": state.qualityBar = true
        case "SETQUALITYBAR_TT", "SETGENPIN", "SETGENPIN_TT": break
        case "SETTIMEOUT": if !line.argument.isEmpty { state.timeoutSeconds = Self.timeout(line.argument) }
        case "OPTION": return option(line.argument).map { .reply(["OK"]) }
        case "GETINFO": return info(line.argument).map { .reply($0 + ["OK"]) }
        case "GETPIN": return dialog(.getPIN(state))
        case "CONFIRM":
            let oneButton = line.argument.contains(text: "--one-button")
            return dialog(PinentryRequest(kind: oneButton ? .message : .confirmation, state: state))
        case "MESSAGE": return dialog(PinentryRequest(kind: .message, state: state))
        case "RESET": state.reset()
        case "NOP": break
        case "BYE": return .success(.close(["OK closing connection"]))
        case "HELP": return help(line.argument)
        case "CANCEL", "AUTH", "END": return .failure(.notImplemented)
        case "CLEARPASSPHRASE": return .failure(.general)  // no password cache to clear
        default: return .failure(.unknownCommand)
        }
        return .success(.reply(["OK"]))
    }

    private mutating func dialog(_ request: PinentryRequest) -> Result<Step, AssuanError> {
        pending = request
        return .success(.dialog(request))
    }

    /// The reply to the dialog `receive` handed out.
    public mutating func finish(_ result: DialogResult) -> DialogReply {
        let kind = pending?.kind ?? .passphrase
        pending = nil
        if kind == .passphrase { state.endPINDialog() } else { state.error = nil }
        func failure(_ error: AssuanError, status: [String] = []) -> DialogReply {
            DialogReply(status: status, sendsSecret: false, last: error.line)
        }
        switch (result, kind) {
        case (.terminalUnusable(let errno, let location), _):
            let error = AssuanError.terminalUnusable(errno: errno)
            return failure(error, status: ["S ERROR \(Self.statusName).\(location) \(error.number) "])
        case (.interrupted, _):
            let error = AssuanError.fullyCanceled
            var reply = failure(error, status: ["S ERROR \(Self.statusName).? \(error.number) "])
            reply.closes = true
            return reply
        case (.timedOut, _):
            let error = AssuanError.timeout
            return failure(error, status: ["S ERROR \(Self.statusName).? \(error.number) "])
        case (_, .message):
            return DialogReply(status: [], sendsSecret: false, last: "OK")
        case (.entered(let repeated), _):
            return DialogReply(status: repeated ? ["S PIN_REPEATED"] : [], sendsSecret: true, last: "OK")
        case (.confirmed, _):
            return DialogReply(status: [], sendsSecret: false, last: "OK")
        case (.notConfirmed, .confirmation):
            return failure(.notConfirmed)
        case (.notConfirmed, _), (.cancelled, _):
            return failure(.canceled)
        }
    }

    /// libassuan's OPTION parsing: "name=value", "name value" or "name"; "--name" as "name".
    private mutating func option(_ argument: String) -> Result<Void, AssuanError> {
        let blanks: Set<Character> = [" ", "\t"]
        let text = Substring(argument)
        guard !text.isEmpty else { return .failure(.syntax("argument required")) }
        guard text.first != "=" else { return .failure(.syntax("no option name given")) }
        var name = text.prefix { !blanks.contains($0) && $0 != "=" }
        var rest = text[name.endIndex...].drop { blanks.contains($0) }
        if rest.first == "=" {
            rest = rest.dropFirst().drop { blanks.contains($0) }
            if rest.isEmpty { return .failure(.syntax("option argument expected")) }
        }
        while let last = rest.last, blanks.contains(last) { rest.removeLast() }
        if name.hasPrefix("--"), name.count > 2 { name = name.dropFirst(2) }
        return state.setOption(String(name), value: String(rest)) ? .success(()) : .failure(.unknownOption)
    }

    private func info(_ what: String) -> Result<[String], AssuanError> {
        let answer: String
        switch what {
        case "version": answer = identity.version
        case "pid": answer = String(identity.pid)
        case "flavor": answer = identity.flavor
        case "ttyinfo":
            let device = state.ttyName.map { $0.isEmpty ? "-" : identity.deviceStatus($0) } ?? "-"
            answer = [state.ttyName ?? "-", state.ttyType ?? "-", state.display ?? "-", device, identity.userIDs, "-"]
                .joined(separator: " ")
        default: return .failure(.parameter)
        }
        return .success(AssuanEscaping.dataLines(answer))
    }

    /// The commands, in pinentry's order: libassuan's own first.
    public static let commands = [
        "NOP", "CANCEL", "OPTION", "BYE", "AUTH", "RESET", "END", "HELP", "SETDESC", "SETPROMPT", "SETKEYINFO",
        "SETREPEAT", "SETREPEATERROR", "SETERROR", "SETOK", "SETNOTOK", "SETCANCEL", "GETPIN", "CONFIRM", "MESSAGE",
        "SETQUALITYBAR", "SETQUALITYBAR_TT", "SETGENPIN", "SETGENPIN_TT", "GETINFO", "SETTITLE", "SETTIMEOUT",
        "CLEARPASSPHRASE",
    ]

    private func help(_ argument: String) -> Result<Step, AssuanError> {
        guard argument.isEmpty else {
            let name = argument.prefix { $0 != " " }.uppercased()
            return .failure(Self.commands.contains(name) ? .helpNotFound : .helpUnknownCommand)
        }
        return .success(.reply(Self.commands.map { "# \($0)" } + ["OK"]))
    }

    /// SETTIMEOUT's seconds, read as pinentry does (`atoi`); 0 (no limit) for one that is not positive, or further off
    /// than `Countdown.farthest`: a limit of years is said as none.
    static func timeout(_ argument: String) -> Int {
        let seconds = atoi(argument)
        return seconds > 0 && seconds <= Countdown.farthest.components.seconds ? seconds : 0
    }

    /// C's atoi: leading blanks, a sign, digits; 0 when there are none.
    static func atoi(_ text: String) -> Int {
        var rest = Substring(text).drop { $0 == " " || $0 == "\t" }
        var sign = 1
        if let first = rest.first, first == "-" || first == "+" {
            sign = first == "-" ? -1 : 1
            rest = rest.dropFirst()
        }
        let digits = rest.prefix(while: \.isASCII).prefix(while: \.isNumber).prefix(9)
        return sign * (Int(digits) ?? 0)
    }
}
