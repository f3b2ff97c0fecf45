import OTCPromptCore

#if canImport(Glibc)
    import Glibc  // signal numbers only
#endif

/// kitty's keyboard protocol (`KeyboardProtocol`): asked for once the prompt takes keys, turned on when the terminal
/// answers that it has it, turned off when the prompt ends or stops; and no answer left to land in the shell.
extension PromptLoop {
    /// Asks, where `asksKeyboardProtocol` allows it; after the type-ahead is discarded, which would take the answers.
    mutating func askKeyboardProtocol() {
        guard asksKeyboardProtocol, keyboardAskedAt == nil, !disambiguatesKeys else { return }
        terminal.askKeyboardProtocol()
        keyboardAskedAt = now
    }

    /// After each read: the terminal said it has the protocol (its mode goes on), or its last answer is in.
    mutating func followKeyboardAnswers() {
        guard keyboardAskedAt != nil else { return }
        if decoder.heardKeyboardProtocol && !disambiguatesKeys {
            terminal.setKeyboardDisambiguation(true)
            disambiguatesKeys = true
        }
        if decoder.heardDeviceAttributes { keyboardAskedAt = nil }
    }

    /// A prompt that ends before the terminal has answered (a code typed ahead submits at once) waits for the last
    /// answer, at most `KeyboardProtocol.answerPatience` after asking, so that it is read here and not by the shell.
    /// What else is read meanwhile goes, as the restore's discard would take it. A terminating signal meanwhile
    /// ends the prompt as that signal, which it returns.
    mutating func awaitKeyboardAnswers() -> PromptOutcome? {
        guard let askedAt = keyboardAskedAt else { return nil }
        let until = askedAt + KeyboardProtocol.answerPatience(escapeDelay: escapeDelay)
        while keyboardAskedAt != nil, now < until {
            switch terminal.read(timeout: until - now, alsoWatching: [], callerWatching: system.caller) {
            case .bytes(let bytes):
                _ = decoder.feed(bytes)
                if decoder.heardDeviceAttributes { keyboardAskedAt = nil }
            case .signal(let signal) where [SIGWINCH, SIGCHLD, SIGCONT, SIGTSTP].contains(signal):
                continue
            case .signal(let signal):
                return .signalled(signal)
            case .timedOut, .otherReady, .closed, .callerGone:
                return nil
            }
        }
        return nil
    }
}
