import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
import OTCPromptLoop
import OTCPromptSettings
import OTCPromptTerminal

/// `--pinentry` (or run as `pinentry-otc`): gpg-agent's Assuan conversation on stdin/stdout, each
/// GETPIN, CONFIRM and MESSAGE asked on the terminal `OPTION ttyname` names.
struct PinentryProgram {
    /// The prompt the options describe; each dialog sets its own request.
    let template: PromptProgram
    /// Each dialog's request, and its outcome as gpg-agent hears it.
    let frontEnd: PinentryFrontEnd
    /// The config file's problems: said with the first dialog's opening, once for the whole conversation.
    let configNotices: OnceLines

    /// Lines handed out once, whichever copy of the program asks first.
    final class OnceLines {
        private var lines: [String]
        init(_ lines: [String]) { self.lines = lines }
        func take() -> [String] {
            defer { lines = [] }
            return lines
        }
    }

    /// gpg-agent's pipe: stdin and stdout.
    var channel = AssuanChannel()

    /// The template with `request` (and the config file's problems, the first time), no --check, watching
    /// gpg-agent's pipe.
    func prompt(_ request: Request) -> PromptProgram {
        var program = template
        program.request = request.withDetails(configNotices.take())
        program.check = nil
        program.policy = .pinentry(caller: channel.callerDescriptors)
        return program
    }

    func run() -> Int32 {
        var conversation = PinentryConversation(
            identity: .init(
                version: OTCPromptVersion.current, pid: ProcessIdentity.processID, flavor: "otc",
                deviceStatus: { ProcessIdentity.deviceStatus($0) }, userIDs: ProcessIdentity.userIDs))
        guard channel.write(lines: [PinentryConversation.greeting]) else { return ExitStatus.outputFailed }
        while true {
            switch channel.readLine(limit: AssuanLine.maximumLength) {
            case .closed:
                return ExitStatus.submitted
            case .tooLong:
                // libassuan gives up on the connection the same way.
                StandardError.writeLine("otc-prompt: Assuan processing failed: Line passed to IPC too long")
                return ExitStatus.invalidInput
            case .line(let bytes):
                switch conversation.receive(bytes) {
                case nil: continue
                case .reply(let lines)?:
                    guard channel.write(lines: lines) else { return ExitStatus.outputFailed }
                case .close(let lines)?:
                    channel.write(lines: lines)
                    return ExitStatus.submitted
                case .dialog(let request)?:
                    let (result, secret) = PinentryDialog(request: request, program: self).run()
                    // gpg-agent went during the dialog (killed, restarted): the dialog ended as cancelled
                    // with nothing more read from the terminal, and nobody is left for a reply.
                    if channel.callerHasGone {
                        SystemLog.warning(
                            "gpg-agent closed the pinentry's pipe during a dialog: the dialog was cancelled")
                        return ExitStatus.terminalClosed
                    }
                    let reply = conversation.finish(result)
                    guard send(reply, secret: secret, on: channel) else { return ExitStatus.outputFailed }
                    if reply.closes { return ExitStatus.cancelled }
                }
            }
        }
    }

    /// The status lines, the secret as "D" lines encoded straight from its buffer into locked memory,
    /// both wiped as soon as they are written, then OK.
    ///
    /// The wipe comes before OK, not after: gpg-agent may act on OK at once (and a reader of this process's memory
    /// with it), so nothing of the secret may outlive the line that says it has been sent.
    private func send(_ reply: PinentryConversation.DialogReply, secret: SecretBytes?, on channel: AssuanChannel)
        -> Bool
    {
        defer { secret?.wipe() }
        guard channel.write(lines: reply.status) else { return false }
        if reply.sendsSecret, let secret {
            let sent = secret.withUnsafeBytes { raw -> Bool in
                let data = raw.assumingMemoryBound(to: UInt8.self)
                let encoded = LockedBytes(count: AssuanEscaping.dataLinesCapacity(for: data))
                let count = AssuanEscaping.writeDataLines(data, into: encoded.bytes)
                // Wiped right after the write, by LockedBytes' deinit.
                return channel.writeUncopied(UnsafeBufferPointer(rebasing: encoded.bytes.prefix(count)))
            }
            secret.wipe()
            guard sent else { return false }
        }
        return channel.write(lines: [reply.last])
    }
}

/// One dialog: the terminal opened, the request `PinentryFrontEnd` makes of it run, the terminal restored and closed.
struct PinentryDialog {
    let request: PinentryRequest
    let program: PinentryProgram

    func run() -> (PinentryConversation.DialogResult, SecretBytes?) {
        let terminal: Terminal
        do {
            let watcher = try SignalWatcher()
            terminal = try Terminal.open(path: request.state.ttyName ?? "/dev/tty", signalWatcher: watcher)
        } catch {
            // A terminal gpg-agent named but that cannot be used is reported as pinentry-curses reports it (a stale
            // GPG_TTY is the user's to fix); with none named and none of our own, the password agent asks.
            guard request.state.ttyName == nil else { return (Self.unusable(error), nil) }
            return askThroughAgent(orElse: Self.unusable(error))
        }
        return answer { ask($0, on: terminal) }
    }

    /// The dialog's answer, each request asked by `ask`.
    private func answer(_ ask: (Request) -> PromptOutcome?) -> (PinentryConversation.DialogResult, SecretBytes?) {
        let frontEnd = program.frontEnd
        guard let question = frontEnd.request(request) else { return frontEnd.askSecret(request, ask: ask) }
        return (PinentryFrontEnd.result(ask(question)), nil)
    }

    /// No terminal (gpg-agent named none, and /dev/tty cannot be opened): the dialog is posted for the user's
    /// password agent (`AgentQuestion`), within SETTIMEOUT's limit; `unusable` when it cannot be posted.
    private func askThroughAgent(orElse unusable: PinentryConversation.DialogResult)
        -> (PinentryConversation.DialogResult, SecretBytes?)
    {
        let seconds = request.state.timeoutSeconds
        let agent = AgentQuestion(
            environment: program.template.environment, timeLimit: seconds > 0 ? .seconds(seconds) : nil,
            caller: program.channel.callerDescriptors)
        var posted = true
        let result = answer { request in
            guard posted, let outcome = agent.ask(request) else {
                posted = false
                return nil
            }
            return outcome
        }
        return posted ? result : (unusable, nil)
    }

    /// What gpg-agent hears when the terminal could not be opened, as pinentry says it.
    private static func unusable(_ error: any Error) -> PinentryConversation.DialogResult {
        guard case HostError.system(let errno, let call) = error else {
            return .terminalUnusable(errno: 25, location: "isatty")
        }
        return .terminalUnusable(errno: errno.rawValue, location: call == "open" ? "open_tty_for_read" : "isatty")
    }

    /// The outcome of `request` on the terminal; nil when it could not start (the reason is on the terminal).
    private func ask(_ request: Request, on terminal: Terminal) -> PromptOutcome? {
        try? program.prompt(request).runSession(on: terminal).get()
    }
}
