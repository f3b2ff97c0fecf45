/// `--check`: the program runs the check on the code of `PromptEffect.check` and reports back
/// through these calls. While the check runs, keys that would edit the field wait their turn
/// (nothing typed is lost or applied to the code being checked); keys that only ask (Ctrl-R,
/// Ctrl-T, Ctrl-L, help) are answered at once, and Esc or Ctrl-C cancel at once.
///
/// After a rejection the code stays on screen marked as an error (knOtpView): the next key that
/// edits clears it and starts the new attempt, so a typed character becomes its first character.
extension PromptSession {
    /// The most keys kept during one check; a paste counts as three (its pieces are joined).
    public static let queuedKeyLimit = 64
    /// The most pasted text kept during one check: far more than any code or password.
    public static let queuedPasteLimit = 4096
    /// The longest error line said; the rest is cut.
    public static let errorLineLimit = 200

    /// The check has run for 500 ms: say "checking", once per check.
    public mutating func checkIsSlow() -> [PromptEffect] {
        guard phase == .checking(saidChecking: false) else { return [] }
        phase = .checking(saidChecking: true)
        return [announce(.checking, wording.checking)]
    }

    /// The check accepted the code: the `complete` announcement and `.submit`. Keys typed during
    /// the check are dropped: the prompt is over.
    public mutating func checkAccepted() -> [PromptEffect] {
        guard isChecking else { return [] }
        phase = .finished
        queuedKeys.removeAll()
        return [announce(.complete, wording.checkAccepted(field: field)), .submit(field.takeSecret())]
    }

    /// The check rejected the code (non-zero exit).
    ///
    /// Says so with the check's first stderr line and the attempts left. Under `--mask` a line
    /// that contains the code (ignoring case, spaces and separators) is not said: commands like
    /// to echo what they rejected. With attempts left the rejected code stays shown and the keys
    /// typed during the check are applied now, as the start of the new attempt; their effect is
    /// told in the same announcement (one announcement, so nothing cuts the verdict off). With
    /// none left: a final announcement and `.fail`.
    public mutating func checkRejected(firstErrorLine: String?) -> [PromptEffect] {
        guard isChecking else { return [] }
        return reject(saying: sayableErrorLine(firstErrorLine))
    }

    /// The check could not run at all (not found, not executable, killed by someone else, no process
    /// to be had): that is no verdict on the code, so no attempt is used; the prompt ends with the
    /// reason (the error line under the same `--mask` rule as a rejection's) and `.checkError`.
    public mutating func checkCouldNotRun(reason: String, firstErrorLine: String?) -> [PromptEffect] {
        guard isChecking else { return [] }
        phase = .finished
        queuedKeys.removeAll()
        let text = wording.checkCouldNotRun(reason: reason, errorLine: sayableErrorLine(firstErrorLine))
        return [.announce(Announcement(.checkError, text, isFinal: true)), .checkError(text)]
    }

    /// The check did not answer within `--check-timeout` (the program has stopped it): a rejection.
    public mutating func checkTimedOut() -> [PromptEffect] {
        guard isChecking else { return [] }
        return reject(saying: wording.checkTimedOut)
    }

    mutating func beginCheck() {
        phase = .checking(saidChecking: false)
    }

    private mutating func reject(saying errorLine: String?) -> [PromptEffect] {
        attemptsLeft -= 1
        isError = true
        guard attemptsLeft > 0 else {
            phase = .finished
            queuedKeys.removeAll()
            let text = wording.checkRejected(
                errorLine: errorLine, attemptsLeft: 0, newAttempt: nil, field: field, style: style)
            return [.announce(Announcement(.checkFailed, text, isFinal: true)), .fail]
        }
        phase = .showingRejectedCode
        var actions: [PromptEffect] = []
        var characterLost = false
        let replayed = queuedKeys
        queuedKeys.removeAll()
        for (index, key) in replayed.enumerated() {
            if isChecking {
                // The replay filled the field and sent it to the check again: the rest waits.
                queuedKeys = Array(replayed[index...])
                break
            }
            for effect in handle(key) {
                guard case .announce(let announcement) = effect else {
                    actions.append(effect)
                    continue
                }
                characterLost = characterLost || announcement.event == .unreadable
            }
        }
        var text = wording.checkRejected(
            errorLine: errorLine, attemptsLeft: attemptsLeft, newAttempt: phase == .showingRejectedCode ? nil : field,
            field: field, style: style)
        // Never silently: a character typed meanwhile that could not be read is said with the verdict.
        if characterLost { text += " " + wording.characterNotRead }
        return [announce(.checkFailed, text)] + actions
    }

    /// A key during a check: asked-for answers now, edits later, cancel at once.
    func keyDuringCheckIsQueued(_ key: Key) -> Bool {
        switch key {
        case .character(let character): return character != "?" || field.charset.accept(character) != nil
        case .backspace, .clearField, .submit, .pasteBegan, .pasteText, .pasteEnded, .unmarkedPaste, .undecodable, .tab:
            return true
        case .readBack, .timeLeft, .redraw, .interrupt, .escape, .endOfInput, .ignored, .terminalReport, .suspend:
            return false
        }
    }

    mutating func handleDuringCheck(_ key: Key) -> [PromptEffect] {
        if keyDuringCheckIsQueued(key) {
            enqueue(key)
            return []
        }
        switch key {
        case .interrupt, .escape: return cancel()
        case .redraw: return [.redraw]
        case .timeLeft: return timeLeft()
        case .readBack: return [announce(.readback, wording.readBack(field: field, style: style))]
        case .character: return [keyHelp()]
        default: return []
        }
    }

    /// Keeps `key` for after the verdict, within the limits; consecutive paste pieces are joined.
    private mutating func enqueue(_ key: Key) {
        if case .pasteText(let text) = key, case .pasteText(let earlier)? = queuedKeys.last {
            let room = Self.queuedPasteLimit - earlier.count
            queuedKeys[queuedKeys.count - 1] = .pasteText(earlier + text.prefix(max(0, room)))
            return
        }
        guard queuedKeys.count < Self.queuedKeyLimit else { return }
        if case .pasteText(let text) = key {
            queuedKeys.append(.pasteText(String(text.prefix(Self.queuedPasteLimit))))
        } else if case .unmarkedPaste(let text) = key {
            queuedKeys.append(.unmarkedPaste(String(text.prefix(Self.queuedPasteLimit))))
        } else {
            queuedKeys.append(key)
        }
    }

    /// The first key after a rejection. Returns the whole answer when the key is used up by
    /// clearing the rejected code (Backspace, Ctrl-U, Enter) or only reads it (Ctrl-R); nil to go
    /// on with the key as usual, after clearing the field when the key starts a new code.
    mutating func startOver(with key: Key) -> [PromptEffect]? {
        switch key {
        case .character(let character):
            // A character that is not allowed (or `?` for help) leaves the rejected code shown.
            if field.charset.accept(character) != nil { clearRejectedCode() }
            return nil
        case .pasteBegan, .pasteText, .unmarkedPaste:
            clearRejectedCode()
            return nil
        case .backspace, .clearField, .submit:
            clearRejectedCode()
            isError = false
            return [announce(.clear, wording.cleared(field: field, style: style))]
        case .readBack:
            return [announce(.readback, wording.readBack(field: field, style: style))]
        case .pasteEnded, .interrupt, .escape, .endOfInput, .timeLeft, .redraw, .ignored, .terminalReport, .undecodable,
            .suspend, .tab:
            return nil
        }
    }

    private mutating func clearRejectedCode() {
        field.clear()
        phase = .editing
    }

    /// The check's error line, if it may be said: under `--mask` dropped when it contains the
    /// code (judged on the whole line, before it is cut), then trimmed and cut to `errorLineLimit`.
    func sayableErrorLine(_ line: String?) -> String? {
        CheckErrorLine.sayable(line, code: field.value, mask: configuration.mask)
    }
}
