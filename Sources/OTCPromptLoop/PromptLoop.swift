import OTCPromptCore

/// The flow of one key, top to bottom: bytes from the terminal → `KeyDecoder` → `Key` →
/// session → its effects and its state to the outputs (the screen, the voice, the speech log, a braille display).
/// Time and the running `--check` are the loop's other two inputs; the session decides what they mean.
public struct PromptLoop<Session: InteractiveSession> {
    public private(set) var session: Session
    /// Where the session's effects and state go, and keys and news come from besides the terminal.
    public var outputs: SessionOutputs
    let system: PromptSystem
    var terminal: any PromptTerminal { system.terminal }
    /// The voice still starting, until its outcome is in (`PromptLoop+SpeechStartup`).
    var speechStartup: (any SpeechStartup)?
    /// How long a lone Esc waits for the rest of a key (`EscapeWait`); grows to fit a link seen to split keys.
    public private(set) var escapeDelay: Duration
    /// The longest the Esc delay grows to by itself (`--escape-delay` may set more).
    private static var adaptiveEscapeDelayLimit: Duration { .seconds(1) }
    /// A paste whose end marker never came is closed after this long without bytes, so it cannot
    /// swallow every key that follows.
    public static var unfinishedPasteLimit: Duration { .seconds(2) }
    let capabilities: TerminalCapabilities
    let check: CheckSettings?
    let typeAhead: TypeAheadRule
    private let start: Duration
    /// Keys read before this (since start) are leftovers, not answers (`TypeAheadRule.discarded`).
    var keysIgnoredUntil: Duration = .zero
    /// Reads until then still continue a leftover that arrived within the grace (`takesTypedKeys`).
    var leftoverContinuesUntil: Duration = .zero
    /// The line being typed began as a leftover: its keys go, up to and including its Enter (`dropLeftoverLine`).
    var inLeftoverLine = false
    /// A leftover line's Enter was just dropped: the session says so (`InteractiveSession.leftoverIgnored`).
    var leftoverLineEnded = false
    /// Under `TypeAheadRule.heldUntilHeard`: the keys dropped until the opening has been heard.
    var held: (any KeyHold)?
    var decoder = KeyDecoder()
    /// The keys read after the Esc that ended the prompt, as the terminal sent them: the next program's.
    private var typedAfterEscape: [UInt8] = []
    /// Without bracketed paste, the pieces of one paste that a link split across reads, joined.
    private var pasteJoin = UnmarkedPasteJoin()
    /// Asks the terminal for kitty's keyboard protocol (`KeyboardProtocol.mayAsk`), and turns it on once it answers.
    let asksKeyboardProtocol: Bool
    /// When it was asked, until its last answer is in.
    var keyboardAskedAt: Duration?
    /// Its "disambiguate" mode is on: Esc comes as CSI 27 u.
    var disambiguatesKeys = false
    private var lastBytesAt: Duration = .zero
    var runningCheck: CheckRun?
    /// The prompt resumed itself after its own stop; the SIGCONT that continued it is not news.
    var resumedAfterOwnStop = false
    /// When set and the caller hangs up, the terminal stays in raw mode (no moment of echo before the caller's next
    /// prompt), and the last line is left as drawn, the cursor after it, when this says so at that moment: for a
    /// process that comes back to that line itself, or replaces it at once with its next prompt.
    public var keepsTerminalWhenCallerGoes: (() -> Bool)?
    /// An ordinary end (an answer, a cancel, a time-out, the caller gone) leaves the terminal in raw mode for the
    /// next prompt of the same process (one that asks several questions in turn): a key typed in between is
    /// neither echoed on the screen nor left to the terminal's line editing. The process restores it when it ends.
    public var keepsRawMode = false
    /// Under `TypeAheadRule.heldUntilHeard`, a hold that is not this prompt's own: it began before it and may go on
    /// after it, and decides itself when it ends and what it counts (the password agent's, by its model).
    public var keyHold: (any KeyHold)?
    /// Called the moment the user declines (Esc, Ctrl-C), before anything is said of it: a caller waiting for the
    /// answer has it at once, not after "cancelled" has been heard (the password agent's querier).
    public var declines: (() -> Void)?

    public init(
        session: Session, outputs: SessionOutputs, system: PromptSystem,
        escapeDelay: Duration, capabilities: TerminalCapabilities, check: CheckSettings?,
        typeAhead: TypeAheadRule = .kept, speechStartup: (any SpeechStartup)? = nil, asksKeyboardProtocol: Bool = false
    ) {
        self.asksKeyboardProtocol = asksKeyboardProtocol
        self.speechStartup = speechStartup
        self.session = session
        self.outputs = outputs
        self.system = system
        self.escapeDelay = escapeDelay
        self.capabilities = capabilities
        self.check = check
        self.typeAhead = typeAhead
        self.start = system.now()
    }

    /// Time since the prompt started.
    var now: Duration { system.now() - start }

    /// Runs until the prompt is over, then leaves the terminal as it found it, at once: what was typed while the
    /// prompt still decided is discarded with the restore (as readpassphrase and sudo do: the tail of a secret never
    /// reaches the shell), and what is typed after it is the next program's, byte for byte. So is what came in the
    /// same read as the Esc that ended it, after that Esc (`KeyDecoder`): tmux, or a link, wrote them together.
    public mutating func run() -> PromptOutcome {
        var outcome = loop()
        runningCheck?.process.kill()
        if outcome != .terminalClosed, let signalled = awaitKeyboardAnswers() { outcome = signalled }
        if disambiguatesKeys { terminal.setKeyboardDisambiguation(false) }
        if outcome == .callerGone, let leavesLine = keepsTerminalWhenCallerGoes {
            terminal.discardInput()
            if !leavesLine() { outputs.end() }
        } else {
            outputs.end()
            if !(keepsRawMode && outcome.isOrdinary) {
                if typedAfterEscape.isEmpty {
                    terminal.restore(discardingInput: true)
                } else {
                    terminal.restore(givingBack: typedAfterEscape)
                }
            }
        }
        outputs.release()
        session.wipe()
        return outcome
    }

    private mutating func loop() -> PromptOutcome {
        do {
            try terminal.enterRawMode(bracketedPaste: !capabilities.isDumb)
        } catch {
            terminal.write("otc-prompt: \(error)\r\n")
            return .terminalClosed
        }
        // Where allowed (RLIMIT_MEMLOCK), the field's pages never go to swap.
        session.withSecretStorage { system.lockInMemory($0) }
        discardTypeAhead()
        askKeyboardProtocol()
        if let outcome = perform(session.start()) { return outcome }
        draw()

        while true {
            let keys: [Key]
            // The outputs' keys and news (the voice's: the opening a screen reader cut, to send again) and news from
            // outside the prompt (a request that arrived) wake the loop too.
            let others =
                [runningCheck?.process.descriptor, speechStartup?.descriptor, system.outside?.descriptor]
                .compactMap { $0 } + outputs.descriptors
            // What came after an Esc that did not end the prompt is decoded before the terminal is read again.
            let input =
                decoder.holdsBytesAfterEscape
                ? .bytes(decoder.takeBytesAfterEscape())
                : terminal.read(timeout: nextTimeout(), alsoWatching: others, callerWatching: system.caller)
            switch input {
            case .bytes(let bytes):
                resumedAfterOwnStop = false
                followSplitKey()
                lastBytesAt = now
                // Without bracketed paste, a burst in one read is a paste (`UnmarkedPaste`), and what
                // follows it closely is more of it (`UnmarkedPasteJoin`).
                let decoded = decoder.feed(bytes)
                followKeyboardAnswers()
                let recognised = capabilities.isDumb ? UnmarkedPaste.recognise(decoded, from: bytes) : decoded
                let allowed = dropLeftoverLine(recognised, ignored: !takesTypedKeys(now))
                keys = hold(capabilities.isDumb ? pasteJoin.take(allowed, from: bytes, at: now) : allowed)
            case .timedOut, .otherReady:
                outputs.takeNews()
                keys = hold(
                    dropLeftoverLine(pasteJoin.due(at: now) + flushOverdueInput(), ignored: now < keysIgnoredUntil))
                if let outcome = sayOutsideNews() { return outcome }
            case .closed:
                return .terminalClosed
            case .callerGone:
                return .callerGone
            case .signal(let signal):
                if let outcome = handle(signal: signal) { return outcome }
                keys = []
            }
            if let outcome = perform(session.tick(at: now)) ?? followCheck() {
                draw()
                return outcome
            }
            if leftoverLineEnded {
                leftoverLineEnded = false
                if let outcome = perform(session.leftoverIgnored()) { return outcome }
            }
            if let outcome = releaseHeldKeys() { return outcome }
            for key in keys + hold(outputKeys()) {
                // The last key is drawn too: the screen confirms what was submitted.
                let outcome = key == .suspend ? suspend() : perform(withWhatWaits(session.handle(key), after: key))
                draw()
                if let outcome {
                    if key == .escape {
                        let after = decoder.takeBytesAfterEscape()
                        // A secret's keys are never given back: what followed the Esc may be the rest of the secret
                        // (Alt pressed by mistake on a keyboard that sends Alt as Esc), which the shell would echo
                        // and run. It goes with the restore, as what was typed while the prompt decided does.
                        if !session.masksInput { typedAfterEscape = Self.forTheNextProgram(after) }
                    }
                    return outcome
                }
            }
            // After the keys that came with it: what they did is caught up in the same announcement.
            if let outcome = followSpeechStartup() { return outcome }
            draw()
        }
    }

    /// What came after the Esc that ended the prompt, less a second Esc pressed to cancel (Esc Esc): that one was
    /// the prompt's, and the shell would take it for Alt on the next key. Esc and the rest of a key (an arrow) stay.
    static func forTheNextProgram(_ bytes: [UInt8]) -> [UInt8] {
        var rest = bytes[...]
        while rest.first == 0x1B, !(rest.dropFirst().first.map { [0x5B, 0x4F].contains($0) } ?? false) {
            rest = rest.dropFirst()
        }
        return Array(rest)
    }

    /// A lone Esc held past the Esc delay, or a paste left open past its limit, given up on.
    private mutating func flushOverdueInput() -> [Key] {
        let quiet = now - lastBytesAt
        if decoder.isInsidePaste { return quiet >= Self.unfinishedPasteLimit ? decoder.endPaste() : [] }
        guard decoder.isAwaitingMoreBytes && quiet >= escapeDelay else { return [] }
        return decoder.flush()
    }

    /// Bytes arrived while a key was held unfinished: a link that splits keys this far apart gets an
    /// Esc delay of twice the gap (up to `adaptiveEscapeDelayLimit`), so the next split key is not a cancel.
    private mutating func followSplitKey() {
        guard decoder.isAwaitingMoreBytes else { return }
        let gap = now - lastBytesAt
        if gap * 2 > escapeDelay { escapeDelay = max(escapeDelay, min(gap * 2, Self.adaptiveEscapeDelayLimit)) }
    }

    /// How long the next wait may last: until the Esc delay, the session's next announcement or
    /// the running check's next deadline, whichever comes first (nil: until something happens).
    private func nextTimeout() -> Duration? {
        let now = self.now
        var deadlines: [Duration] = []
        if decoder.isInsidePaste { deadlines.append(lastBytesAt + Self.unfinishedPasteLimit) }
        if decoder.isAwaitingMoreBytes { deadlines.append(lastBytesAt + escapeDelay) }
        if let deadline = pasteJoin.deadline { deadlines.append(deadline) }
        if let deadline = session.nextDeadline(after: now) { deadlines.append(deadline) }
        if let deadline = held?.deadline(at: now, speaking: outputs.isSpeaking) { deadlines.append(deadline) }
        if system.outside?.keepsNews == true { deadlines.append(now + HeldKeys.speakingRecheck) }
        if let runningCheck, let check { deadlines.append(runningCheck.nextDeadline(settings: check)) }
        return deadlines.min().map { max(.zero, $0 - now) }
    }

    /// Reaps the running check or tells the session it is slow or overdue.
    private mutating func followCheck() -> PromptOutcome? {
        guard var run = runningCheck, let check else { return nil }
        let effects: [PromptEffect]
        switch run.process.verdict() {
        case .accepted:
            runningCheck = nil
            effects = session.checkAccepted()
        case .rejected:
            runningCheck = nil
            effects = session.checkRejected(firstErrorLine: run.process.firstErrorLine)
        case .couldNotRun(let reason):
            runningCheck = nil
            effects = session.checkCouldNotRun(reason: reason, firstErrorLine: run.process.firstErrorLine)
        case nil where now - run.startedAt >= check.timeout:
            run.process.kill()
            runningCheck = nil
            effects = session.checkTimedOut()
        case nil where !run.saidChecking && now - run.startedAt >= CheckSettings.slowAfter:
            run.saidChecking = true
            runningCheck = run
            effects = session.checkIsSlow()
        case nil:
            return nil
        }
        return perform(effects)
    }

    /// Carries out the session's effects; returns an outcome when the prompt is over.
    mutating func perform(_ effects: [PromptEffect]) -> PromptOutcome? {
        var outcome: PromptOutcome?
        if let declines, effects.contains(.cancel) { declines() }
        for effect in effects {
            outputs.carryOut(effect, snapshot: session.snapshot)
            switch effect {
            case .announce, .redraw, .show: break
            case .submit(let code): outcome = .submitted(code)
            case .cancel: outcome = .cancelled
            case .check(let code): outcome = startCheck(code)
            case .fail: outcome = .rejected
            case .timeout: outcome = .timedOut
            case .confirmed(let yes): outcome = .confirmed(yes)
            case .checkError(let message): outcome = .checkCouldNotRun(message)
            }
        }
        return outcome
    }

    /// Starts `--check` on `code`; a command that cannot even start is an error, not a rejection.
    private mutating func startCheck(_ code: String) -> PromptOutcome? {
        guard let check else { return .submitted(SecretBytes(copying: code)) }
        do {
            runningCheck = CheckRun(
                process: try system.startCheck(check.command, code), startedAt: now)
            return nil
        } catch {
            return perform(session.checkCouldNotRun(reason: "\(error)", firstErrorLine: nil))
        }
    }

    mutating func draw() {
        outputs.draw(session.snapshot)
    }

    /// Back from a stop: raw mode again, the field drawn again and announced again.
    mutating func resume() -> PromptOutcome? {
        do {
            try terminal.enterRawMode(bracketedPaste: !capabilities.isDumb)
        } catch {
            return .terminalClosed
        }
        discardTypeAhead()
        if disambiguatesKeys { terminal.setKeyboardDisambiguation(true) }
        outputs.draw(session.snapshot, whole: true)
        return perform(session.start())
    }
}
