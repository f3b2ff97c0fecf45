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

    /// The lines before the field, in reading order: the title, every line of the description,
    /// then the error; made visible by the one scrubber (`UntrustedText`), blank lines dropped.
    /// A line gpg-agent ends with a comma ("…, ID 6D0B…,") loses it: each line is said as a sentence.
    public var lines: [String] {
        [state.title, state.description, state.error].compactMap { $0 }.flatMap(UntrustedText.visibleLines)
            .map { line in
                var line = line.trimmed(where: { $0 == " " })
                while line.last == "," || line.last == ";" { line.removeLast() }
                return line
            }
            .filter { !$0.isEmpty }
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

    /// CONFIRM's question (the last line) and the lines before it.
    public var question: (question: String, details: [String]) {
        var lines = self.lines
        guard let last = lines.popLast() else { return (state.okLabel.map(PromptLabel.trimmed) ?? "OK", []) }
        return (last, lines)
    }
}
