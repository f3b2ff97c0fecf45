import OTCPromptCore
import OTCPromptLoop
import OTCPromptSettings
import OTCPromptTerminal

/// `--pinentry` (or run as `pinentry-otc`): gpg-agent's Assuan conversation on stdin/stdout, each
/// GETPIN, CONFIRM and MESSAGE asked on the terminal `OPTION ttyname` names.
struct PinentryProgram {
    /// The prompt the options describe; each dialog sets its own request.
    let template: PromptProgram
    let language: Language
    let verbosity: Verbosity
    /// gpg-agent's pipe: stdin and stdout.
    var channel = AssuanChannel()

    /// The template with `request`, no --check and no start-up notices, watching gpg-agent's pipe.
    func prompt(_ request: PromptRequest) -> PromptProgram {
        var program = template
        program.request = request
        program.check = nil
        program.notices = []
        program.caller = channel.callerDescriptors
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

    /// The status lines, the secret as "D" lines from locked memory that is wiped at once, then OK.
    private func send(_ reply: PinentryConversation.DialogReply, secret: String?, on channel: AssuanChannel) -> Bool {
        guard channel.write(lines: reply.status) else { return false }
        if reply.sendsSecret, var secret {
            let sent = secret.withUTF8 { text -> Bool in
                let plain = LockedBytes(count: text.count)
                _ = plain.bytes.initialize(from: text)
                let data = UnsafeBufferPointer(plain.bytes).prefix(text.count)
                let encoded = LockedBytes(
                    count: AssuanEscaping.dataLinesCapacity(for: UnsafeBufferPointer(rebasing: data)))
                let count = AssuanEscaping.writeDataLines(UnsafeBufferPointer(rebasing: data), into: encoded.bytes)
                // Both buffers are wiped as they go (LockedBytes' deinit), right after the write.
                return channel.writeUncopied(UnsafeBufferPointer(rebasing: encoded.bytes.prefix(count)))
            }
            guard sent else { return false }
        }
        return channel.write(lines: [reply.last])
    }
}

/// One dialog: the terminal opened, the field (asked twice for SETREPEAT) or the question run, the
/// terminal restored and closed.
struct PinentryDialog {
    let request: PinentryRequest
    let program: PinentryProgram

    func run() -> (PinentryConversation.DialogResult, String?) {
        let terminal: Terminal
        do {
            let watcher = try SignalWatcher()
            terminal = try Terminal.open(path: request.state.ttyName ?? "/dev/tty", signalWatcher: watcher)
        } catch .system(let errno, call: let call) {
            return (
                .terminalUnusable(errno: errno.rawValue, location: call == "open" ? "open_tty_for_read" : "isatty"), nil
            )
        } catch {
            return (.terminalUnusable(errno: 25, location: "isatty"), nil)
        }
        switch request.kind {
        case .confirmation, .message:
            // A MESSAGE is acknowledged by any answer; a CONFIRM needs a typed yes (ConfirmSession's rules).
            let (question, details) = request.question
            let session = ConfirmSession(
                question: question, details: details, language: program.language, verbosity: program.verbosity,
                timeLimit: timeLimit)
            return (result(program.prompt(.question(session)).runSession(on: terminal)), nil)
        case .passphrase:
            return askSecret(on: terminal)
        }
    }

    /// The field, and for SETREPEAT the field again; a mismatch says the repeat error and starts over.
    private func askSecret(on terminal: Terminal) -> (PinentryConversation.DialogResult, String?) {
        var state = request
        while true {
            let first = ask(label: state.fieldLabel, details: state.lines, on: terminal)
            guard case .entered = first.0, let secret = first.1 else { return first }
            guard let repeatLabel = state.repeatLabel else { return first }
            let second = ask(label: repeatLabel, details: [], on: terminal)
            guard case .entered = second.0, let again = second.1 else { return second }
            if again == secret { return (.entered(repeated: true), secret) }
            state.state.error = state.repeatMismatch
        }
    }

    /// One field, `details` (the title, description and error) said and shown before it.
    private func ask(label: String, details: [String], on terminal: Terminal) -> (
        PinentryConversation.DialogResult, String?
    ) {
        // A card PIN is masked free text too: OpenPGP cards take any UTF-8 PIN (a YubiKey's or a Nitrokey's may
        // hold letters), so a field of digits would lock those users out. Any length, Enter submits, only the
        // count said.
        var configuration = PromptConfiguration.freeText(
            label: label, mask: true, language: program.language, verbosity: program.verbosity, timeLimit: timeLimit)
        configuration.details = details
        let outcome = program.prompt(.code(configuration, askpass: true)).runSession(on: terminal)
        if case .success(.submitted(let secret)) = outcome { return (.entered(repeated: false), secret) }
        return (result(outcome), nil)
    }

    private var timeLimit: Duration? {
        request.state.timeoutSeconds > 0 ? .seconds(request.state.timeoutSeconds) : nil
    }

    private func result(_ outcome: Result<PromptOutcome, PromptProgram.SetupFailed>)
        -> PinentryConversation.DialogResult
    {
        switch outcome {
        case .success(.confirmed(true)), .success(.submitted): .confirmed
        case .success(.confirmed(false)): .notConfirmed
        case .success(.timedOut): .timedOut
        case .success(.signalled): .interrupted
        case .success(.cancelled), .success(.callerGone), .success(.rejected), .success(.checkCouldNotRun),
            .success(.terminalClosed),
            .success(.speechFailed),
            .failure:
            .cancelled
        }
    }
}
