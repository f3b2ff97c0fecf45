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
    func prompt(_ request: PromptRequest) -> PromptProgram {
        var program = template
        program.request = request.withDetails(configNotices.take())
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

    /// The status lines, the secret as "D" lines encoded straight from its buffer into locked memory,
    /// both wiped as soon as they are written, then OK.
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

    func run() -> (PinentryConversation.DialogResult, SecretBytes?) {
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
        case .confirmation:
            // A typed whole yes, or one of gpg-agent's labels (ConfirmSession's rules).
            let (question, details) = request.question
            let session = ConfirmSession(
                question: question, details: details, labels: request.labels, language: program.language,
                verbosity: program.verbosity, timeLimit: timeLimit)
            return (result(program.prompt(.question(session)).runSession(on: terminal)), nil)
        case .message:
            // A notice ("Please insert the card"), not a question: Enter takes it. Esc closes it too, and
            // gpg-agent hears OK either way, as from pinentry-tty (`PinentryConversation.finish`).
            let (message, details) = request.question
            let notice = NoticeSession(
                message: message, details: details, takesEnter: true, language: program.language,
                verbosity: program.verbosity, timeLimit: timeLimit)
            return (result(program.prompt(.notice(notice)).runSession(on: terminal)), nil)
        case .passphrase:
            return askSecret(on: terminal)
        }
    }

    /// The field, and for SETREPEAT the field again; a mismatch says the repeat error and starts over.
    /// The two buffers are compared in constant time; every one not handed on is wiped at once.
    private func askSecret(on terminal: Terminal) -> (PinentryConversation.DialogResult, SecretBytes?) {
        var state = request
        while true {
            let first = ask(label: state.fieldLabel, details: state.paragraphs, news: state.news, on: terminal)
            guard case .entered = first.0, let secret = first.1 else { return first }
            guard let repeatLabel = state.repeatLabel else { return first }
            let second = ask(label: repeatLabel, details: [], news: [], on: terminal)
            guard case .entered = second.0, let again = second.1 else {
                secret.wipe()
                return second
            }
            let same = again.matches(secret)
            again.wipe()
            if same { return (.entered(repeated: true), secret) }
            secret.wipe()
            state.state.error = state.repeatMismatch
        }
    }

    /// One field: on a retry `news` (the error) first, then the field; `details` (the title and the
    /// description) before it, or after it on a retry.
    private func ask(label: String, details: [String], news: [String], on terminal: Terminal) -> (
        PinentryConversation.DialogResult, SecretBytes?
    ) {
        // A card PIN is masked free text too: OpenPGP cards take any UTF-8 PIN (a YubiKey's or a Nitrokey's may
        // hold letters), so a field of digits would lock those users out. Any length, Enter submits, only the
        // count said.
        var configuration = PromptConfiguration.freeText(
            label: label, mask: true, language: program.language, verbosity: program.verbosity, timeLimit: timeLimit)
        configuration.details = details
        configuration.news = news
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
