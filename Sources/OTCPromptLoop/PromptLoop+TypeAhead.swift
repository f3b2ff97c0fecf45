import OTCPromptCore

/// `TypeAheadRule.discarded`: what was queued goes when the prompt appears, keys within the grace
/// are ignored, and a line begun within it is dropped whole, up to its Enter.
extension PromptLoop {
    /// Under `TypeAheadRule.discarded`, just before the prompt is shown and announced: what is queued
    /// goes, and keys within the grace that follows are ignored.
    mutating func discardTypeAhead() {
        switch typeAhead {
        case .kept: return
        case .discarded(let grace):
            terminal.discardInput()
            keysIgnoredUntil = now + grace
        case .heldUntilHeard(let quiet):
            // Nothing is flushed: what waits is read, held and counted with the rest ("6 keys were dropped.", not 5).
            // Once released, a stop and its resume hold nothing again.
            if held == nil { held = keyHold ?? HeldKeys(quiet: quiet, since: now) }
        }
    }

    /// Under `TypeAheadRule.heldUntilHeard`: the keys read now, dropped while held.
    mutating func hold(_ keys: [Key]) -> [Key] {
        guard var current = held else { return keys }
        let kept = current.take(keys, at: now)
        held = current
        return kept
    }

    /// Ends the hold once the opening has been heard and the terminal has been quiet, saying how many keys were
    /// dropped, if any.
    mutating func releaseHeldKeys() -> PromptOutcome? {
        guard var current = held, current.isHolding else { return nil }
        let dropped = current.release(at: now, speaking: outputs.isSpeaking)
        held = current
        guard let dropped, dropped > 0 else { return nil }
        return perform([.announce(Announcement(.notice, session.wording.keysDropped(dropped)))])
    }

    /// Whether a read at `time` is typed for this prompt. Within the type-ahead grace it is not, and
    /// neither is what continues it with no pause of `UnmarkedPasteJoin.window` (the rest of a leftover
    /// the link split), so that no part of it is held by the paste join, or the decoder, past the grace.
    mutating func takesTypedKeys(_ time: Duration) -> Bool {
        guard time < keysIgnoredUntil || time < leftoverContinuesUntil else { return true }
        leftoverContinuesUntil = time + UnmarkedPasteJoin.window
        return false
    }

    /// Under `TypeAheadRule.discarded`: a line whose first key came within the grace (`ignored`) is a
    /// leftover however it ends (what came before the prompt went with the queue, so its rest arriving
    /// within the grace is one too); every key of it goes, up to and including the
    /// Enter that ends it, even past the grace ("ye" typed ahead, "s⏎" after, is no "yes"). Any key
    /// begins one, even one that types nothing (Tab, an arrow, Ctrl-R, Ctrl-L): whoever pressed it
    /// was typing before the question was heard. Esc and Ctrl-C always count: refusing harms nothing.
    /// What the terminal sends on its own (focus reports, replies) is no key and begins nothing.
    mutating func dropLeftoverLine(_ keys: [Key], ignored: Bool) -> [Key] {
        guard case .discarded = typeAhead, ignored || inLeftoverLine else { return keys }
        var kept: [Key] = []
        for key in keys {
            if !ignored && !inLeftoverLine {
                kept.append(key)
                continue
            }
            switch key {
            case .interrupt, .escape:
                kept.append(key)
            case .readBack, .timeLeft, .redraw:
                // Past the grace they still read the question again, even within a leftover line.
                if ignored { inLeftoverLine = true } else { kept.append(key) }
            case .submit:
                inLeftoverLine = false
                leftoverLineEnded = true
            case .unmarkedPaste(let text), .pasteText(let text):
                // A pasted line break is text to a session, but it still ends the leftover's line.
                if let lineBreak = text.lastIndex(where: \.isNewline) {
                    leftoverLineEnded = true
                    inLeftoverLine = text.index(after: lineBreak) < text.endIndex
                } else {
                    inLeftoverLine = true
                }
            case .terminalReport, .pasteBegan, .pasteEnded:
                break
            default:
                inLeftoverLine = true
            }
        }
        return kept
    }
}
