/// Every opening has one shape, whatever asks: what happened or who asks first (a retry's error, a request
/// withdrawn, an origin marking), then the question with how to answer it in one sentence (the lead), then the
/// details (a short time limit, the caller's description and fingerprint, the key hints), which any key cuts short
/// and Ctrl-R says again. A listener knows what is asked and how to answer within its first sentence
/// ("Allow use of key joe@laptop? Yes or no."), not after 18 s of fingerprint.
extension Wording {
    /// The opening announcement: `news`, then `lead`, then `details`, each part on lines of its own in text mode.
    public func opening(news: [String], lead: Utterance, details: [Utterance]) -> Announcement {
        var text = news.isEmpty ? Utterance([]) : sentenceLines(news) + .lineBreak()
        text += lead
        for part in details where !part.isEmpty { text += .lineBreak() + part }
        return Announcement(.prompt, lead: lead, text)
    }

    /// A field's lead: its label, what it holds when something is typed, and how to fill it ("Verification code.
    /// Type 6 digits.", "password for joe (sudo). Type it, then Enter.").
    public func fieldLead(label: String, field: CodeField, style: Style) -> Utterance {
        var clauses = [Utterance(Self.withoutEndStop(label))]
        if !field.isEmpty { clauses.append(style.mask ? Utterance(entered(field)) : spell(field, style)) }
        return clauses.joined(separator: ", ") + ". " + howToFill(field, style)
    }

    /// After the caller's details: the kind of field where the lead does not say it (a hidden code, secret text),
    /// how to hear it back, help ("Secret text, Control R counts them."); terse keeps the kind only.
    public func fieldKeys(field: CodeField, style: Style) -> Utterance {
        var clauses = [Utterance]()
        if field.kind == .freeText || style.mask {
            clauses.append(Utterance(Self.capitalized(phrases.kind(kind(field, style)))))
        }
        if style.hints {
            clauses.append(Utterance(phrases.readBackHint(style.mask)))
            if helpKeyWorks(field) { clauses.append(Utterance(phrases.helpHint)) }
        }
        return clauses.isEmpty ? Utterance([]) : Self.capitalizedFirst(clauses.joined(separator: ", ")) + "."
    }

    /// A question's lead: the question, then its choices ("Allow use of key joe@laptop? Yes or no.", "Do you want
    /// to allow this? Allow or Deny.").
    /// The question's own lines stay lines in text mode.
    public func questionLead(_ question: String, labels: ConfirmLabels) -> Utterance {
        var lines = Self.lines(question)
        if let last = lines.popLast() {
            let mark = last.last.flatMap { "?!.".contains($0) ? $0 : nil } ?? "?"
            lines.append(Self.withoutEndStop(last) + String(mark))
        }
        let names = choices(labels).map { label, word in label ?? word }
        let said =
            labels.isEmpty
            ? Self.capitalized(phrases.outcome.yesOrNo)
            : (names.count > 1
                ? language.catalog.text("choices.or", names.dropLast().joined(separator: ", "), names.last!)
                : names[0])
        return sentenceLines([lines.joined(separator: "\n")]) + " " + said + "."
    }

    /// How to answer a question, said after its details: the whole word, or the choices with their words.
    public func questionHow(labels: ConfirmLabels, acceptsFingerprint: Bool) -> Utterance {
        labels.isEmpty
            ? Utterance(phrases.outcome.confirmHow(acceptsFingerprint))
            : Utterance(labelledChoices(labels) + " " + labelledHow)
    }

    /// A notice's lead: its message, then how to take it ("Please insert the card. Press Enter to continue.").
    public func noticeLead(_ message: String, hint: String?) -> Utterance {
        var text = sentenceLines([message])
        if let hint { text += .lineBreak() + hint }
        return text
    }

    /// The time left, said with an opening only when it is short: a caller's usual limit (systemd's 90 s) is no
    /// news at the start; at 30 s and 10 s it is said anyway, and Ctrl-T says it at any time.
    public func openingTimeLeft(_ left: SpokenDuration?) -> Utterance {
        guard let left, left.isShortForAnOpening else { return Utterance([]) }
        return Utterance(Self.capitalized(timeLeft(left)) + ".")
    }

    /// `--doctor`'s offer after its summary: Enter for the whole report, Escape to end.
    public var doctorOffer: String { language.catalog.text("doctor.offer") }

    /// sudo's password question as the question first: "Sudo password", or "Sudo password for root" where the account
    /// is not the login's own.
    public func sudoPassword(account: String?) -> String {
        account.map { language.catalog.text("sudoPasswordFor", $0) } ?? language.catalog.text("sudoPassword")
    }

    /// ssh's password question ("joe@host's password") as the question first: "SSH password".
    public var sshPassword: String { language.catalog.text("sshPassword") }

    /// git's questions for a remote ("Password for 'https://…'", "Username for 'https://…'") as the question first:
    /// "Git password", "Git user name".
    public func git(userName: Bool) -> String { language.catalog.text(userName ? "gitUserName" : "gitPassword") }

    /// The lead of a request after a quiet wait: a word, so that the first words of what follows are not missed.
    public var cue: String { language.catalog.text("cue") }

    /// "Type 6 digits.", "Type 6 digits, then press Enter.", "Type it, then Enter."
    private func howToFill(_ field: CodeField, _ style: Style) -> String {
        guard field.kind == .code else { return phrases.typeHint(field.charset, field.kind, style.autoSubmit) }
        let name =
            switch field.charset {
            case .digits: "lead.digits"
            case .alnum: "lead.alnum"
            case .any: "lead.any"
            }
        return language.catalog.plural(style.autoSubmit ? name : name + "ThenEnter", count: field.length, field.length)
    }

    /// A question paragraph's asking sentence, and the rest of its lines as one paragraph said after it: the last
    /// line that asks ("Do you want to allow this?") or else the first that ends in a colon (gpg's "Do you really
    /// want to permanently delete the OpenPGP secret key:", the key's lines below it), with the lines before it that
    /// it continues in lower case (a wrapped line). A line of punctuation alone (gpg's lone "?") is dropped; a
    /// one-line question is itself.
    public static func askingLine(of question: String) -> (asked: String, about: [String]) {
        let lines = Self.lines(question)
        guard lines.count > 1 else { return (question, []) }
        let hasWords = { (line: String) in line.contains { $0.isLetter || $0.isNumber } }
        guard
            let last = lines.lastIndex(where: { $0.hasSuffix("?") && hasWords($0) })
                ?? lines.firstIndex(where: { $0.hasSuffix(":") && hasWords($0) })
        else { return (question, []) }
        var first = last
        while first > 0, lines[first].first.map({ $0.isLetter && $0.isLowercase }) == true,
            lines[first - 1].last.map({ !".?!:".contains($0) }) == true
        {
            first -= 1
        }
        let asked = lines[first...last].joined(separator: "\n")
        let about = lines.indices.filter { !(first...last).contains($0) && hasWords(lines[$0]) }.map { lines[$0] }
        return (asked, about.isEmpty ? [] : [about.joined(separator: "\n")])
    }

    /// `utterance` with its first letter in upper case, where it begins with words.
    static func capitalizedFirst(_ utterance: Utterance) -> Utterance {
        guard case .words(let words)? = utterance.segments.first else { return utterance }
        return Utterance([.words(capitalized(words))] + utterance.segments.dropFirst())
    }

    /// A label or question said with a stop of ours after it: its own trailing colon or stop is dropped
    /// ("… sda2_crypt:" is said "… sda2_crypt."), never said twice.
    static func withoutEndStop(_ text: String) -> String {
        var text = Substring(text)
        while let last = text.last, last == ":" || last == "." || last == "?" || last == "!" || last.isWhitespace {
            text.removeLast()
        }
        return String(text)
    }
}

extension SpokenDuration {
    /// Short enough to say when a prompt opens: a minute or less.
    var isShortForAnOpening: Bool { minutes * 60 + seconds <= 60 }
}
