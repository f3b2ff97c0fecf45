/// What the program must do after the session handled a key.
public enum PromptEffect: Equatable, Sendable {
    case announce(Announcement)
    /// Draw the whole field again from scratch (Ctrl-L, after a resize or a resume).
    case redraw
    /// The user submitted this code: print it and exit 0. Its buffer is the field's (never a
    /// `String`); whoever sends it on wipes it.
    case submit(SecretBytes)
    /// The user cancelled: exit 130. During a check the program stops the check first.
    case cancel
    /// `--check`: run the check on this code. The session waits (`isChecking`) until the program
    /// calls `checkAccepted()`, `checkRejected(firstErrorLine:)` or `checkTimedOut()`.
    case check(String)
    /// The check rejected the last allowed attempt: exit 1.
    case fail
    /// `--timeout` ran out: exit 124.
    case timeout
    /// The yes/no question was answered (`ConfirmSession`): yes exits 0, no exits 1.
    case confirmed(Bool)
    /// The `--check` command could not run (this message says why): an error, not a rejection.
    case checkError(String)
    /// A line the screen must carry as well as the voice (a character that could not be read): shown
    /// above the field. With announcements as text lines, the announcement is that line already.
    case show(String)
}

/// The prompt's whole behaviour as a pure state machine: keys in, effects out. The program
/// renders `snapshot` after every key; the renderer works out what changed.
///
/// Each key yields at most one announcement (a new one supersedes the one playing, so two would
/// cut each other off). Once the code is submitted, the prompt cancelled, failed or timed out,
/// keys do nothing.
///
/// With `--check` a complete field is not submitted but checked (`PromptEffect.check`); the
/// check's verdict comes back through `PromptSession+Check`. Time comes in as values through
/// `tick(at:)` (`PromptSession+Time`).
public struct PromptSession: Sendable {
    public let configuration: PromptConfiguration
    public internal(set) var field: CodeField
    /// The last key was rejected, or the check rejected the code: the screen shows it until the
    /// next key (that changes the field).
    public internal(set) var isError = false
    /// Where the prompt is: editing, showing a rejected code, checking, or over.
    public internal(set) var phase: PromptPhase = .editing
    /// How many more codes the check may reject before the prompt fails.
    public internal(set) var attemptsLeft: Int
    /// Editing keys typed during a check, applied in order once the verdict is in.
    public internal(set) var queuedKeys: [Key] = []
    public let wording: Wording
    let style: Wording.Style
    /// Set between `.pasteBegan` and `.pasteEnded`.
    var paste: PasteInProgress?
    /// Free text: a character typed since the field was last empty could not be read (`.undecodable`),
    /// so the field is not what was typed; the next Enter says so instead of submitting.
    private(set) var lostCharacter = false
    /// The last key ended a paste (its undecodable bytes in a code field are the message's, not the code's).
    var lastKeyEndedPaste = false
    var clock: SessionClock

    public init(configuration: PromptConfiguration) {
        self.configuration = configuration
        self.field = CodeField(length: configuration.length, charset: configuration.charset, kind: configuration.kind)
        self.wording = Wording(language: configuration.language)
        self.style = Wording.Style(configuration)
        self.attemptsLeft = configuration.attempts
        self.clock = SessionClock(timeLimit: configuration.timeLimit)
    }

    /// What to say and show when the prompt appears, or comes back after a stop: a retry's news, then the lead
    /// (the label and how to fill the field), then the details (a short time limit, the caller's lines, the keys),
    /// which any key cuts short (`Wording.opening`).
    public mutating func start() -> [PromptEffect] { opening(news: configuration.news, asked: false) }

    /// The opening with `news` first: a readback leaves out what was said once (`newsSaidOnce`).
    /// - Parameter asked: Ctrl-R asked for it again, which says `aboutOnRequest` too.
    private func opening(news: [String], asked: Bool) -> [PromptEffect] {
        let lines = configuration.details + (asked ? configuration.aboutOnRequest : [])
        let details = [
            wording.openingTimeLeft(clock.spokenTimeLeft),
            lines.isEmpty ? Utterance([]) : wording.sentenceLines(lines),
            wording.fieldKeys(field: field, style: style),
        ]
        let lead = wording.fieldLead(label: configuration.label, field: field, style: style)
        return [.announce(wording.opening(news: news, lead: lead, details: details))]
    }

    /// Applies one key.
    public mutating func handle(_ key: Key) -> [PromptEffect] {
        let followsPaste = lastKeyEndedPaste
        lastKeyEndedPaste = key == .pasteEnded || { if case .unmarkedPaste = key { true } else { false } }()
        guard !isFinished else { return [] }
        if isChecking { return handleDuringCheck(key) }
        switch key {
        case .terminalReport: return []
        // A key that types nothing is said, never dropped unsaid: the user knows the field is as it was.
        case .ignored: return reject(wording.keyNotTyped)
        case .undecodable: return characterNotRead(afterPaste: followsPaste)
        case .redraw: return [.redraw]
        case .timeLeft: return timeLeft()
        default: break
        }
        if phase == .showingRejectedCode, let effects = startOver(with: key) { return effects }
        let rejectedCodeShown = phase == .showingRejectedCode
        isError = false
        let effects = apply(key)
        // A rejected code stays marked while shown, also when the key ends the prompt over it (Esc).
        if phase == .showingRejectedCode || (rejectedCodeShown && phase == .finished) { isError = true }
        return effects
    }

    /// A key, once checks and time are out of the way.
    private mutating func apply(_ key: Key) -> [PromptEffect] {
        switch key {
        case .character(let character): return type(character)
        case .tab: return typeTab()
        case .backspace: return deleteLast()
        case .clearField:
            field.clear()
            lostCharacter = false
            return [announce(.clear, wording.cleared(field: field, style: style))]
        case .readBack
        where field.isEmpty
            && !(configuration.details.isEmpty && configuration.news.isEmpty && configuration.aboutOnRequest.isEmpty):
            // Nothing typed yet: hear the caller's whole question again (a fingerprint, PAM's instructions).
            return opening(news: Array(configuration.news.dropFirst(configuration.newsSaidOnce)), asked: true)
        case .readBack: return [announce(.readback, wording.readBack(field: field, style: style))]
        case .submit: return submit()
        case .interrupt, .escape: return cancel()
        case .endOfInput: return field.isEmpty ? cancel() : []
        case .pasteBegan:
            paste = newPaste()
            return []
        case .pasteText(let text):
            if paste == nil { paste = newPaste() }
            paste?.scan(text)
            return []
        case .pasteEnded: return endPaste()
        case .unmarkedPaste(let text):
            // Cannot be told from fast typing, so it fills the field but waits for Enter.
            paste = newPaste()
            paste?.scan(text)
            return endPaste(mayAutoSubmit: false)
        case .redraw, .ignored, .terminalReport, .undecodable, .timeLeft, .suspend: return []
        }
    }

    /// Tab is a character of a free-text secret, as cryptsetup's and sudo's prompts keep it; where it would
    /// move the cursor on the screen (a visible field) or cannot be part of a code, it is said not typed.
    private mutating func typeTab() -> [PromptEffect] {
        guard field.kind == .freeText, configuration.mask else { return reject(wording.tabNotTyped) }
        guard field.appendTab() else { return [announce(.full, wording.full(field: field, style: style))] }
        return [announce(.digit, wording.typed("\t", field: field, style: style))]
    }

    /// Bytes the terminal sent were not a character in its charset: said, never dropped silently, with
    /// nothing of what was typed. In free text (a password) the field is then not what was typed, so
    /// the next Enter says so first. A code's characters are all ASCII, which always decode: in a code
    /// field such bytes cannot be part of the code, and after a paste they belong to its message.
    private mutating func characterNotRead(afterPaste: Bool) -> [PromptEffect] {
        if field.kind == .code && afterPaste { return [] }
        if field.kind == .freeText { lostCharacter = true }
        return reject(Announcement(.unreadable, wording.characterNotRead)) + [.show(wording.characterNotRead)]
    }

    /// What the screen should show now.
    public var snapshot: FieldSnapshot {
        FieldSnapshot(
            label: configuration.label, characters: field.characters, length: configuration.length,
            mask: configuration.mask, isError: isError)
    }

    /// Overwrites the field (and drops any paste in progress) so the code does not linger once
    /// the prompt is over. See `CodeField.wipe()` for what this cannot reach.
    public mutating func wipe() {
        field.wipe()
        paste?.wipe()
        paste = nil
        queuedKeys.removeAll()
    }

    private mutating func type(_ character: Character) -> [PromptEffect] {
        switch field.append(character) {
        case .accepted(let stored):
            if field.kind == .code && field.isFull && configuration.autoSubmit {
                return complete(
                    wording.completed(by: stored, field: field, style: style),
                    beforeCheck: Announcement(.digit, wording.sentToCheck(stored, field: field, style: style)))
            }
            return [announce(.digit, wording.typed(stored, field: field, style: style))]
        case .notAllowed where character == "?":
            return [keyHelp()]
        case .notAllowed(let rejected):
            return reject(wording.notAllowed(rejected, field: field, style: style))
        case .full:
            return [announce(.full, wording.full(field: field, style: style))]
        }
    }

    /// Backspace on an empty field changes nothing, so it is a `reject` ("empty"), not a `delete`.
    private mutating func deleteLast() -> [PromptEffect] {
        guard let deleted = field.deleteLast() else { return reject(wording.nothingToDelete) }
        if field.isEmpty { lostCharacter = false }
        return [announce(.delete, wording.deleted(deleted, field: field, style: style))]
    }

    private mutating func submit() -> [PromptEffect] {
        if lostCharacter {
            // Heard once: Enter again submits the field as it is.
            lostCharacter = false
            let text = wording.submitWithoutLostCharacter
            return reject(Announcement(.unreadable, text)) + [.show(text)]
        }
        guard field.isComplete else {
            return [announce(.incomplete, wording.incomplete(field: field, style: style))]
        }
        return complete(wording.completed(field: field, style: style), beforeCheck: nil)
    }

    /// The field is complete: submitted with `text`, or with `--check` sent to the check, after
    /// `beforeCheck` (what the last key did; the verdict is said later).
    private mutating func complete(_ text: Utterance, beforeCheck: Announcement?) -> [PromptEffect] {
        guard configuration.checksCode else {
            phase = .finished
            return [announce(.complete, text), .submit(field.takeSecret())]
        }
        beginCheck()
        return (beforeCheck.map { [.announce($0)] } ?? []) + [.check(field.value)]
    }

    mutating func cancel() -> [PromptEffect] {
        phase = .finished
        queuedKeys.removeAll()
        return [announce(.cancel, wording.cancelled), .cancel]
    }

    private mutating func reject(_ text: String) -> [PromptEffect] {
        reject(Utterance(text))
    }

    private mutating func reject(_ text: Utterance) -> [PromptEffect] {
        reject(Announcement(.reject, text))
    }

    private mutating func reject(_ announcement: Announcement) -> [PromptEffect] {
        isError = true
        return [.announce(announcement)]
    }

    /// One announcement for the whole paste; a paste that completes the field submits it
    /// (auto-submit) with the `complete` announcement alone. A code found in a message, or a
    /// paste that is a whole code by itself, replaces the field; a shorter paste is appended.
    private mutating func endPaste(mayAutoSubmit: Bool = true) -> [PromptEffect] {
        guard var scanner = paste else { return [] }
        paste = nil
        defer { scanner.wipe() }
        let offset: Int
        let accepted: [Character]
        let extracted: Bool
        var overflowed = false
        switch scanner.result {
        case .rejected:
            return reject(wording.pasteRejected(field: field))
        case .characters(let characters)
        where field.kind == .code && characters.count == field.length && !scanner.overflowed:
            // A whole code: it replaces what was typed rather than being appended to it, so
            // pasting the code over a half-typed one never submits a mix of the two.
            offset = 0
            accepted = field.replace(with: characters)
            extracted = false
        case .characters(let characters):
            if characters.isEmpty { return reject(wording.nothingPasted) }
            if field.isFull { return [announce(.full, wording.full(field: field, style: style))] }
            offset = field.count
            accepted = field.append(contentsOf: characters)
            overflowed = accepted.count < characters.count || scanner.overflowed
            extracted = false
        case .extracted(let characters):
            offset = 0
            accepted = field.replace(with: characters)
            extracted = true
        }
        let text = wording.pasted(
            accepted, offset: offset, extracted: extracted, overflowed: overflowed, field: field, style: style,
            needsEnter: !mayAutoSubmit)
        // A paste cut to fit is never submitted unheard: the user checks it and presses Enter.
        if field.kind == .code && field.isFull && configuration.autoSubmit && !overflowed && mayAutoSubmit {
            return complete(
                wording.pasteCompleted(accepted, offset: offset, extracted: extracted, field: field, style: style),
                beforeCheck: Announcement(.paste, text))
        }
        return [announce(.paste, text)]
    }

    func announce(_ event: Announcement.Event, _ text: String) -> PromptEffect {
        .announce(Announcement(event, text))
    }

    func announce(_ event: Announcement.Event, _ utterance: Utterance) -> PromptEffect {
        .announce(Announcement(event, utterance))
    }
}
