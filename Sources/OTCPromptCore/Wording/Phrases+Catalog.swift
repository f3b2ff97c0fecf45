/// Every phrase of one language, looked up in its catalog by name. The choices between phrases
/// (a code or free text, mask mode, the charset) are made here, once; the words, agreements and
/// plurals are the catalog's.
extension Phrases {
    init(_ catalog: Catalog) {
        self.init(
            defaultLabel: catalog.text("defaultLabel"),
            empty: catalog.text("empty"),
            position: { count, length in catalog.text("position", count, length) },
            entered: { count, length in catalog.plural("entered", count: count, count, length) },
            enteredFree: { count in catalog.plural("enteredFree", count: count, count) },
            missing: { count in catalog.plural("missing", count: count, count) },
            kind: { kind in Self.kind(kind, catalog) },
            typeHint: { charset, kind, autoSubmit in
                guard kind == .code else { return catalog.text("typeHint.text") }
                let what =
                    switch charset {
                    case .digits: "typeHint.digits"
                    case .alnum: "typeHint.alnum"
                    case .any: "typeHint.any"
                    }
                return catalog.text(autoSubmit ? what : what + "ThenEnter")
            },
            readBackHint: { mask in catalog.text(mask ? "readBackHint.counts" : "readBackHint.reads") },
            helpHint: catalog.text("helpHint"),
            keys: { mask in catalog.text(mask ? "keys.counts" : "keys.reads") },
            redrawKey: catalog.text("redrawKey"),
            bullet: catalog.text("bullet"),
            deleted: catalog.text("deleted"),
            cleared: catalog.text("cleared"),
            filled: catalog.text("filled"),
            alreadyFull: catalog.text("alreadyFull"),
            pressEnter: catalog.text("pressEnter"),
            complete: catalog.text("complete"),
            submitted: catalog.text("submitted"),
            restDidNotFit: catalog.text("restDidNotFit"),
            timeLeftKey: catalog.text("timeLeftKey"),
            allEntered: { length in catalog.plural("allEntered", count: length, length) },
            cancelled: catalog.text("cancelled"),
            notAllowed: { character in Self.notAllowed(character, catalog) },
            only: { charset in
                switch charset {
                case .digits: catalog.text("only.digits")
                case .alnum: catalog.text("only.alnum")
                case .any: catalog.text("only.any")
                }
            },
            pasted: catalog.text("pasted"),
            foundInPaste: catalog.text("foundInPaste"),
            pasteRejected: { kind in
                var plain = kind
                plain.mask = false
                return catalog.text("pasteRejected", Self.kind(plain, catalog))
            },
            nothingPasted: catalog.text("nothingPasted"),
            symbolName: { character in Self.symbolNames[character].map { catalog.text("symbol." + $0) } },
            groupSeparator: catalog.text("spell.groupSeparator"),
            letter: { letter in catalog.utterance("spell.letter", letter) },
            capital: { letter in catalog.utterance("spell.capital", letter) },
            phonetic: Self.phonetic(catalog),
            textFull: { length in catalog.text("textFull", length) },
            textPasteRejected: catalog.text("textPasteRejected"),
            outcome: OutcomePhrases(catalog),
            speechFallback: SpeechFallbackPhrases(catalog),
            question: QuestionPhrases(catalog)
        )
    }

    /// "6-digit code", "hidden 6-character code", "secret text".
    private static func kind(_ kind: FieldDescription, _ catalog: Catalog) -> String {
        guard kind.kind == .code else { return catalog.text(kind.mask ? "kind.secretText" : "kind.text") }
        let name =
            switch (kind.mask, kind.charset == .digits) {
            case (false, true): "kind.digits"
            case (false, false): "kind.characters"
            case (true, true): "kind.hiddenDigits"
            case (true, false): "kind.hiddenCharacters"
            }
        return catalog.plural(name, count: kind.length, kind.length)
    }

    /// A rejected character as it is said: "letter X not allowed", "dash not allowed". Each symbol
    /// has its own message, so a language can agree the words with its name.
    private static func notAllowed(_ character: Character?, _ catalog: Catalog) -> Utterance {
        guard let character else { return Utterance(catalog.text("notAllowed.hidden")) }
        if character.isASCII && character.isLetter {
            return catalog.utterance("notAllowed.letter", .characters([[character.uppercased()]]))
        }
        if character.isASCII && character.isNumber {
            return catalog.utterance("notAllowed.digit", .characters([[String(character)]]))
        }
        if let name = symbolNames[character] { return Utterance(catalog.text("notAllowed.symbol." + name)) }
        return catalog.utterance("notAllowed.character", .characters([[String(character)]]))
    }

    /// The spelling alphabet, A to Z, as the catalog writes it; English's when a translation does not
    /// hold 26 words, so no letter is ever said as another's word.
    private static func phonetic(_ catalog: Catalog) -> [String] {
        let words = catalog.list("spell.phonetic")
        let chosen = words.count == 26 ? words : Catalog.en.list("spell.phonetic")
        return chosen.map(Wording.capitalized)
    }

    /// The symbols named in free text, by the name of their messages (`symbol.dash`, `notAllowed.symbol.dash`).
    static let symbolNames: [Character: String] = [
        " ": "space", ".": "dot", ",": "comma", "-": "dash", "_": "underscore", "/": "slash",
        "\\": "backslash", "+": "plus", "*": "star", "#": "hash", "@": "atSign", "!": "exclamationMark",
        "'": "apostrophe", "\"": "quote", ":": "colon", ";": "semicolon", "(": "leftParen",
        ")": "rightParen", "[": "leftBracket", "]": "rightBracket", "{": "leftBrace", "}": "rightBrace",
        "<": "lessThan", ">": "greaterThan", "=": "equals", "&": "ampersand", "%": "percent",
        "$": "dollar", "~": "tilde", "^": "caret", "|": "bar", "`": "backtick", "?": "questionMark",
    ]
}

extension OutcomePhrases {
    init(_ catalog: Catalog) {
        self.init(
            checking: catalog.text("checking"),
            accepted: { kind in catalog.text(kind == .code ? "accepted.code" : "accepted.text") },
            rejected: { kind in catalog.text(kind == .code ? "rejected.code" : "rejected.text") },
            attemptsLeft: { count in
                count <= 0 ? catalog.text("attemptsLeft.none") : catalog.plural("attemptsLeft", count: count, count)
            },
            typeAgain: { kind in catalog.text(kind == .code ? "typeAgain.code" : "typeAgain.text") },
            newAttempt: catalog.text("newAttempt"),
            checkTimedOut: catalog.text("checkTimedOut"),
            checkCouldNotRun: catalog.text("checkCouldNotRun"),
            timeLeft: { duration in Self.timeLeft(duration, catalog) },
            noTimeLimit: catalog.text("noTimeLimit"),
            timeUp: catalog.text("timeUp"),
            yes: catalog.text("yes"),
            no: catalog.text("no"),
            yesOrNo: catalog.text("yesOrNo"),
            confirmHow: { fingerprint in catalog.text(fingerprint ? "confirmHow.fingerprint" : "confirmHow") },
            notAnAnswer: catalog.text("notAnAnswer"),
            answerChoices: { fingerprint in
                catalog.text(fingerprint ? "answerChoices.fingerprint" : "answerChoices")
            },
            typed: catalog.text("typed"),
            fingerprintSent: catalog.text("fingerprintSent"),
            noticeHint: catalog.text("noticeHint"),
            noticeClosed: catalog.text("noticeClosed"),
            touchSecurityKey: catalog.text("touchSecurityKey"),
            previousAnswerNotAccepted: catalog.text("previousAnswerNotAccepted"),
            characterNotRead: catalog.text("characterNotRead"),
            submitWithoutLostCharacter: catalog.text("submitWithoutLostCharacter"),
            configFileTooSlow: { file, seconds in catalog.plural("configFileTooSlow", count: seconds, file, seconds) },
            cannotSuspendWhileCallerWaits: catalog.text("cannotSuspendWhileCallerWaits"),
            cannotSuspendHere: catalog.text("cannotSuspendHere")
        )
    }

    /// "1 minute 20 seconds left", "cerca de 1 minuto restante": the closing words agree with the
    /// one number said, and are plural for both.
    private static func timeLeft(_ duration: SpokenDuration, _ catalog: Catalog) -> String {
        var parts: [String] = []
        var count = duration.seconds
        if duration.minutes > 0 {
            parts.append(catalog.plural("timeLeft.minutes", count: duration.minutes, duration.minutes))
            count = duration.minutes
        }
        if duration.seconds > 0 || parts.isEmpty {
            parts.append(catalog.plural("timeLeft.seconds", count: duration.seconds, duration.seconds))
        }
        let time = parts.count == 2 ? catalog.text("timeLeft.minutesAndSeconds", parts[0], parts[1]) : parts[0]
        if parts.count == 2 { count = duration.minutes + duration.seconds }
        return catalog.plural(duration.isApproximate ? "timeLeft.about" : "timeLeft", count: count, time)
    }
}

extension QuestionPhrases {
    init(_ catalog: Catalog) {
        self.init(
            yesWords: catalog.list("answer.yesWords"),
            noWords: catalog.list("answer.noWords"),
            leftoverIgnored: catalog.text("leftoverIgnored"),
            noticeEnterHint: catalog.text("noticeEnterHint"),
            noticeTaken: catalog.text("noticeTaken"),
            choices: catalog.text("choices"),
            labelOr: { label, word in catalog.text("labelOr", label, word) },
            escapeKey: catalog.text("escapeKey"),
            labelledHow: catalog.text("labelledHow")
        )
    }
}

extension SpeechFallbackPhrases {
    init(_ catalog: Catalog) {
        self.init(
            unavailable: { why in catalog.text("speech.unavailable", why) },
            noAudioDevice: catalog.text("speech.noAudioDevice"),
            audioServerDidNotAnswer: { server, limit in catalog.text("speech.audioServerDidNotAnswer", server, limit) },
            audioDeviceNotReady: { limit in catalog.text("speech.audioDeviceNotReady", limit) },
            speechDispatcherStopped: catalog.text("speech.dispatcherStopped"),
            audioFileStopped: { path, why in catalog.text("speech.audioFileStopped", path, why) },
            shownAsText: catalog.text("speech.shownAsText")
        )
    }
}
