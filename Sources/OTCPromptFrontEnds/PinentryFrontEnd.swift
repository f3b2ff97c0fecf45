import OTCPromptCore
import OTCPromptLoop

/// gpg-agent's GETPIN, CONFIRM and MESSAGE (`PinentryConversation`): each dialog's request, and its outcome as the
/// `DialogResult` the conversation answers with. The Assuan pipe and the terminal gpg-agent names stay in the
/// executable.
public struct PinentryFrontEnd: Sendable {
    public let language: Language
    public let verbosity: Verbosity

    public init(language: Language, verbosity: Verbosity) {
        self.language = language
        self.verbosity = verbosity
    }

    /// CONFIRM: a typed whole yes, or one of gpg-agent's labels (`ConfirmSession`'s rules); MESSAGE (or CONFIRM
    /// --one-button): a notice that Enter takes. Esc closes it too, and gpg-agent hears OK either way, as from
    /// pinentry-tty (`PinentryConversation.finish`). Nil for GETPIN: see `field`.
    public func request(_ dialog: PinentryRequest) -> Request? {
        let (text, details) = dialog.question
        switch dialog.kind {
        case .confirmation:
            return Request.question(
                ConfirmSession(
                    question: text, details: details, labels: dialog.labels, language: language,
                    verbosity: verbosity, timeLimit: timeLimit(dialog))
            ).withNews(dialog.news)
        case .message:
            return Request.notice(
                NoticeSession(
                    message: text, details: details, takesEnter: true, language: language, verbosity: verbosity,
                    timeLimit: timeLimit(dialog))
            ).withNews(dialog.news)
        case .passphrase:
            return nil
        }
    }

    /// One GETPIN field (asked twice for SETREPEAT): on a retry `news` (the error) first, then the field; `details`
    /// (the title and the description) before it, or after it on a retry.
    ///
    /// A card PIN is masked free text too: OpenPGP cards take any UTF-8 PIN (a YubiKey's or a Nitrokey's may hold
    /// letters), so a field of digits would lock those users out. Any length, Enter submits, only the count said.
    /// Keys typed before it appeared are no answer.
    public func field(label: String, details: [String], news: [String], of dialog: PinentryRequest) -> Request {
        var configuration = PromptConfiguration.freeText(
            label: label, mask: true, language: language, verbosity: verbosity, timeLimit: timeLimit(dialog))
        configuration.details = details
        configuration.news = news
        return Request(.field(configuration), typeAhead: .discarded(grace: .zero))
    }

    /// GETPIN: the field, and for SETREPEAT the field again; a mismatch says the repeat error and starts over. The
    /// two buffers are compared in constant time; every one not handed on is wiped at once.
    /// - Parameter ask: runs one request on the terminal; nil when the prompt could not start.
    /// - Returns: the result, and the secret to send when one was entered (the caller wipes it once sent).
    public func askSecret(_ dialog: PinentryRequest, ask: (Request) -> PromptOutcome?) -> (
        PinentryConversation.DialogResult, SecretBytes?
    ) {
        func entered(_ request: Request) -> (PinentryConversation.DialogResult, SecretBytes?) {
            let outcome = ask(request)
            if case .submitted(let secret)? = outcome { return (.entered(repeated: false), secret) }
            return (Self.result(outcome), nil)
        }
        var state = dialog
        while true {
            let first = entered(field(label: state.fieldLabel, details: state.paragraphs, news: state.news, of: state))
            guard case .entered = first.0, let secret = first.1 else { return first }
            guard let repeatLabel = state.repeatLabel else { return first }
            let second = entered(field(label: repeatLabel, details: [], news: [], of: state))
            guard case .entered = second.0, let again = second.1 else {
                secret.wipe()
                return second
            }
            let same = again.matches(secret)
            again.wipe()
            if same { return (.entered(repeated: true), secret) }
            secret.wipe()
            state.state.error = state.repeatMismatch
        }
    }

    /// SETTIMEOUT's limit; none when 0.
    func timeLimit(_ dialog: PinentryRequest) -> Duration? {
        dialog.state.timeoutSeconds > 0 ? .seconds(dialog.state.timeoutSeconds) : nil
    }

    /// What gpg-agent hears for a dialog's outcome; nil when the prompt could not start (the reason is on the
    /// terminal): cancelled.
    public static func result(_ outcome: PromptOutcome?) -> PinentryConversation.DialogResult {
        switch outcome {
        case .confirmed(true)?, .submitted?: .confirmed
        case .confirmed(false)?: .notConfirmed
        case .timedOut?: .timedOut
        case .signalled?: .interrupted
        case .cancelled?, .callerGone?, .rejected?, .checkCouldNotRun?, .terminalClosed?, .speechFailed?, nil:
            .cancelled
        }
    }
}
