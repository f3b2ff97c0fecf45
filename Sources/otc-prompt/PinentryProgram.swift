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

    /// The template with `request`, no --check and no start-up notices.
    func prompt(_ request: PromptRequest) -> PromptProgram {
        var program = template
        program.request = request
        program.check = nil
        program.notices = []
        return program
    }

    func run() -> Int32 {
        let channel = AssuanChannel()
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
    private func askSecret(on terminal: Terminal) -> (PinentryConversation.DialogResult, String?) {
        var state = request
        while true {
            let first = ask(label: state.fieldLabel, details: state.paragraphs, news: state.news, on: terminal)
            guard case .entered = first.0, let secret = first.1 else { return first }
            guard let repeatLabel = state.repeatLabel else { return first }
            let second = ask(label: repeatLabel, details: [], news: [], on: terminal)
            guard case .entered = second.0, let again = second.1 else { return second }
            if again == secret { return (.entered(repeated: true), secret) }
            state.state.error = state.repeatMismatch
        }
    }

    /// One field: on a retry `news` (the error) first, then the field; `details` (the title and the
    /// description) before it, or after it on a retry.
    private func ask(label: String, details: [String], news: [String], on terminal: Terminal) -> (
        PinentryConversation.DialogResult, String?
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
        case .success(.cancelled), .success(.rejected), .success(.checkCouldNotRun), .success(.terminalClosed),
            .success(.speechFailed),
            .failure:
            .cancelled
        }
    }
}
