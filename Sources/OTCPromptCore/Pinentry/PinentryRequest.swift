/// One dialog gpg-agent asked for (GETPIN, CONFIRM, MESSAGE), with what to show and say.
public struct PinentryRequest: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// A passphrase or a smart card's PIN: a masked free-text field, any length, Enter submits.
        case passphrase
        /// CONFIRM: a deliberate yes or no.
        case confirmation
        /// MESSAGE or CONFIRM --one-button: said, then acknowledged.
        case message
    }

    public var kind: Kind
    /// The texts as they were when the request came.
    public var state: PinentryState

    public init(kind: Kind, state: PinentryState) {
        self.kind = kind
        self.state = state
    }

    /// A GETPIN, for a passphrase or a card's PIN alike: OpenPGP cards take any UTF-8 PIN (a YubiKey's or a
    /// Nitrokey's may hold letters), so a field of digits would lock those users out.
    static func getPIN(_ state: PinentryState) -> PinentryRequest {
        PinentryRequest(kind: .passphrase, state: state)
    }

    /// What the dialog is about, in reading order: the title's paragraphs, then the description's.
    /// Each is made visible by the one scrubber (`UntrustedText`); a line break in gpg's text stays
    /// one ("\n" inside a paragraph: a line on the screen, no sentence end when said), a blank line
    /// ends a paragraph. A paragraph's last line loses a trailing comma (it ends a sentence).
    public var paragraphs: [String] {
        [state.title, state.description].compactMap { $0 }.flatMap(Self.paragraphs)
    }

    /// SETERROR on a retry ("Bad Passphrase (try 2 of 3)"): the news, said before anything else.
    public var news: [String] {
        state.error.map(Self.paragraphs) ?? []
    }

    static func paragraphs(_ text: String) -> [String] {
        var paragraphs: [String] = []
        var current: [String] = []
        func close() {
            guard !current.isEmpty else { return }
            while current[current.count - 1].last == "," || current[current.count - 1].last == ";" {
                current[current.count - 1].removeLast()
            }
            paragraphs.append(current.joined(separator: "\n"))
            current = []
        }
        for line in UntrustedText.visibleLines(text) {
            let line = line.trimmed(where: { $0 == " " })
            if line.isEmpty { close() } else { current.append(line) }
        }
        close()
        return paragraphs
    }

    /// The field's label: the prompt without its colon ("Passphrase"), pinentry's "PIN" when none.
    public var fieldLabel: String {
        let label = PromptLabel.trimmed(state.prompt ?? "")
        return label.isEmpty ? "PIN" : label
    }

    /// SETREPEAT's prompt for the second field, nil when no repeat was asked for.
    public var repeatLabel: String? {
        guard let repeatPrompt = state.repeatPrompt else { return nil }
        let label = PromptLabel.trimmed(repeatPrompt)
        return label.isEmpty ? "Repeat" : label
    }

    /// Said when the two entries differ, before asking again.
    public var repeatMismatch: String {
        let text = UntrustedText.visible(state.repeatError ?? "").trimmed(where: { $0 == " " })
        return text.isEmpty ? "The entries do not match." : text
    }

    /// CONFIRM's (or MESSAGE's) question and the other paragraphs, in order (the news is said before the question,
    /// apart: `news`): the last paragraph that asks ("Do you want to allow this?"), else the first, which heads the
    /// rest (gpg-agent's "Warning: You have entered an insecure passphrase.", its reasons below it).
    public var question: (question: String, details: [String]) {
        var paragraphs = self.paragraphs
        guard !paragraphs.isEmpty else { return (labels.yes ?? "OK", []) }
        let asks = paragraphs.lastIndex { Wording.lines($0).contains { $0.hasSuffix("?") } }
        let index = asks ?? (paragraphs.count > 1 ? 0 : paragraphs.count - 1)
        let question = paragraphs.remove(at: index)
        return (question, paragraphs)
    }

    /// SETOK, SETNOTOK and SETCANCEL as the question's choices, mnemonic underscores removed.
    public var labels: ConfirmLabels {
        ConfirmLabels(
            yes: Self.label(state.okLabel), no: Self.label(state.notOKLabel), cancel: Self.label(state.cancelLabel))
    }

    /// A button label as said and typed: "_Take this one anyway" is "Take this one anyway"; "__" is "_".
    static func label(_ text: String?) -> String? {
        guard let text else { return nil }
        var label = ""
        var underscore = false
        for character in PromptLabel.trimmed(text) {
            if character == "_" && !underscore {
                underscore = true
                continue
            }
            underscore = false
            label.append(character)
        }
        return label.isEmpty ? nil : label
    }
}
