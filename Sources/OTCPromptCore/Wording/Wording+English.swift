extension Phrases {
    static let english: Phrases = Phrases(
        defaultLabel: "Verification code",
        empty: "empty",
        position: { count, length in "\(count) of \(length)" },
        entered: { count, length in "\(count) of \(length) entered" },
        enteredFree: { count in "\(count) entered" },
        missing: { count in "\(count) missing" },
        kind: englishKind,
        typeHint: { charset, kind, autoSubmit in
            guard kind == .code else { return "Type it, then press Enter." }
            let what =
                switch charset {
                case .digits: "the digits"
                case .alnum: "the letters and digits"
                case .any: "the characters"
                }
            return autoSubmit ? "Type \(what)." : "Type \(what), then press Enter."
        },
        readBackHint: { mask in mask ? "Control R counts them" : "Control R reads them back" },
        helpHint: "question mark for help",
        keys: { mask in
            "Backspace deletes the last one, Control U clears, Control R "
                + (mask ? "counts" : "reads back") + ", Enter submits, Escape cancels."
        },
        redrawKey: "Control L redraws the line.",
        bullet: "bullet",
        deleted: "deleted",
        cleared: "cleared",
        filled: "code full",
        alreadyFull: "code full",
        pressEnter: "press Enter",
        complete: "code complete",
        submitted: "submitted",
        restDidNotFit: "the rest did not fit",
        timeLeftKey: "Control T tells the time left.",
        allEntered: { length in "All \(length)." },
        cancelled: "cancelled",
        notAllowed: { character in
            guard let character else { return "character not allowed" }
            return englishName(of: character) + " not allowed"
        },
        only: { charset in
            switch charset {
            case .digits: "digits only"
            case .alnum: "letters and digits only"
            case .any: "printable characters only"
            }
        },
        pasted: "pasted",
        foundInPaste: "code found in pasted text",
        pasteRejected: { kind in
            var plain = kind
            plain.mask = false
            return "paste rejected, no " + englishKind(plain) + " found"
        },
        nothingPasted: "nothing pasted",
        symbolName: { character in englishSymbolNames[character] },
        textFull: { length in "full, \(length) at most" },
        textPasteRejected: "paste rejected, it holds line breaks or control characters",
        outcome: englishOutcome,
        speechFallback: englishSpeechFallback,
        question: englishQuestion
    )

    static let englishOutcome = OutcomePhrases(
        checking: "checking",
        accepted: { kind in kind == .code ? "code accepted" : "accepted" },
        rejected: { kind in kind == .code ? "code rejected" : "not accepted" },
        attemptsLeft: { count in
            switch count {
            case ...0: "No attempts left"
            case 1: "1 attempt left"
            default: "\(count) attempts left"
            }
        },
        typeAgain: { kind in kind == .code ? "Type a new code." : "Type it again." },
        newAttempt: "New attempt",
        checkTimedOut: "check timed out",
        checkCouldNotRun: "the check could not run",
        timeLeft: { duration in
            var parts: [String] = []
            if duration.minutes > 0 { parts.append(duration.minutes == 1 ? "1 minute" : "\(duration.minutes) minutes") }
            if duration.seconds > 0 || parts.isEmpty {
                parts.append(duration.seconds == 1 ? "1 second" : "\(duration.seconds) seconds")
            }
            return (duration.isApproximate ? "about " : "") + parts.joined(separator: " ") + " left"
        },
        noTimeLimit: "no time limit",
        timeUp: "time is up",
        yes: "yes",
        no: "no",
        yesOrNo: "yes or no",
        confirmHow: { acceptsFingerprint in
            acceptsFingerprint
                ? "Type the whole word yes or no, or the key's fingerprint, then press Enter."
                : "Type the whole word yes or no, then press Enter."
        },
        notAnAnswer: "Not an answer.",
        answerChoices: { acceptsFingerprint in acceptsFingerprint ? "yes/no/fingerprint" : "yes/no" },
        typed: "typed",
        fingerprintSent: "fingerprint sent",
        noticeHint: "Nothing to type. Escape closes this notice.",
        noticeClosed: "closed",
        previousAnswerNotAccepted: "The previous answer was not accepted.",
        characterNotRead: "A character could not be read and was not added. Check the terminal's character set.",
        submitWithoutLostCharacter:
            "A character you typed could not be read and is missing. Enter again submits without it; Control U clears.",
        configFileTooSlow: { file, seconds in
            "The configuration file \(file) did not answer within \(seconds) \(seconds == 1 ? "second" : "seconds"); "
                + "using the defaults."
        },
        // Ctrl-Z that cannot stop the prompt.
        cannotSuspendWhileCallerWaits:
            "This prompt cannot be suspended while gpg-agent waits for it; what you typed is kept.",
        cannotSuspendHere: "This prompt cannot be suspended here: nothing could resume it. What you typed is kept."
    )

    // The question's answer words, a pinentry notice, gpg's labels, a leftover line dropped.
    static let englishQuestion = QuestionPhrases(
        yesWords: ["yes"],
        noWords: ["no"],
        leftoverIgnored: "Typed too early, ignored. Type again.",
        noticeEnterHint: "Press Enter to continue.",
        noticeTaken: "OK",
        choices: "Choices",
        labelOr: { label, word in "\(label), or \(word)" },
        escapeKey: "Escape",
        labelledHow: "Type a choice or its word, then press Enter."
    )

    /// "6-digit code", "hidden 6-character code", "secret text".
    static func englishKind(_ kind: FieldDescription) -> String {
        guard kind.kind == .code else { return kind.mask ? "secret text" : "text" }
        let unit = kind.charset == .digits ? "digit" : "character"
        return (kind.mask ? "hidden " : "") + "\(kind.length)-\(unit) code"
    }

    /// A rejected character as it is said: "letter X", "dash", "character é".
    static func englishName(of character: Character) -> Utterance {
        if character.isASCII && character.isLetter { return "letter " + .characters([[character.uppercased()]]) }
        if character.isASCII && character.isNumber { return "digit " + .characters([[String(character)]]) }
        if let name = englishSymbolNames[character] { return Utterance(name) }
        return "character " + .characters([[String(character)]])
    }

    private static let englishSymbolNames: [Character: String] = [
        " ": "space", ".": "dot", ",": "comma", "-": "dash", "_": "underscore", "/": "slash",
        "\\": "backslash", "+": "plus", "*": "star", "#": "hash", "@": "at sign", "!": "exclamation mark",
        "'": "apostrophe", "\"": "quote", ":": "colon", ";": "semicolon", "(": "left paren",
        ")": "right paren", "[": "left bracket", "]": "right bracket", "{": "left brace", "}": "right brace",
        "<": "less than", ">": "greater than", "=": "equals", "&": "ampersand", "%": "percent",
        "$": "dollar", "~": "tilde", "^": "caret", "|": "bar", "`": "backtick", "?": "question mark",
    ]

    static let englishSpeechFallback = SpeechFallbackPhrases(
        unavailable: { why in "speech unavailable: " + why },
        noAudioDevice: "no audio device",
        audioServerDidNotAnswer: { server, limit in "the audio server (\(server)) did not answer within \(limit)" },
        audioDeviceNotReady: { limit in "the audio device did not start within \(limit)" },
        speechDispatcherStopped: "speech-dispatcher stopped answering",
        audioFileStopped: { path, why in "the audio file \(path) takes no more audio (\(why))" },
        shownAsText: "announcements shown as text"
    )
}

extension DiskUnlockPhrases {
    static let english = DiskUnlockPhrases(
        unlockDisk: { disk in disk.map { "Unlock disk \($0)" } ?? "Unlock disk" },
        wrongPassphrase: { attempt, maximum in
            "Wrong passphrase, try \(attempt)" + (maximum.map { " of \($0)" } ?? "") + "."
        }
    )
}
