/// One `BeginAuthentication` as a state machine: the helper's lines, the user's answer and a cancellation in; what
/// the agent does next out. Pure: the helper, the field and the bus reply are the program's.
///
/// A wrong password is said and asked again with the same cookie (polkitd keeps it until the agent replies), up to
/// `attempts` tries, as sudo asks three times. PAM's messages are said with the next field when it follows at once;
/// when the helper goes quiet after them (a module waits for a finger or a touch), the program takes them
/// (`takeNews()`) and says them while it waits.
public struct PolkitConversation: Sendable {
    /// How many passwords are asked before the request ends as failed.
    public static let attempts = 3

    /// How the request ends, as polkitd hears it.
    public enum Result: Equatable, Sendable {
        /// The helper told polkitd: the reply is an empty return.
        case authenticated
        /// Every try refused (or the helper broke): an empty return too, and polkitd finds no authorization.
        case failed
        /// Esc, or polkitd's `CancelAuthentication`: the reply is `org.freedesktop.PolicyKit1.Error.Cancelled`.
        case cancelled
    }

    /// What the program does next.
    public enum Step: Equatable, Sendable {
        /// Open a field with PAM's question (masked unless `echo`), after `news` (PAM's messages, a retry's).
        case ask(prompt: String, echo: Bool, news: [String])
        /// Nothing yet: wait for the helper's next line.
        case wait
        /// Start the helper again for the next try; the news is said with its question.
        case restartHelper
        /// Reply to polkitd and stop the helper; `news` is said and shown last.
        case finish(Result, news: [String])
    }

    private enum Phase: Equatable, Sendable {
        /// The helper is working (started, or given an answer).
        case helper
        /// A field is open for the user.
        case asking
        case ended
    }

    private var phase = Phase.helper
    /// Which try this is, from 1.
    public private(set) var attempt = 1
    private var news: [String] = []
    private let wording: Wording

    public init(language: Language) {
        wording = Wording(language: language)
    }

    public var isEnded: Bool { phase == .ended }

    /// A line from the helper.
    public mutating func receive(_ line: PolkitHelperLine) -> Step {
        guard phase == .helper else { return phase == .ended ? .wait : finish(.failed) }
        switch line {
        case .prompt(let prompt, let echo):
            phase = .asking
            defer { news = [] }
            return .ask(prompt: UntrustedText.visible(prompt), echo: echo, news: news)
        case .info(let message), .error(let message):
            let visible = UntrustedText.visible(message)
            if !visible.isEmpty { news.append(visible) }
            return .wait
        case .success:
            return finish(.authenticated)
        case .failure, .unknown:
            guard attempt < Self.attempts else {
                news.append(wording.polkitFailed)
                return finish(.failed)
            }
            attempt += 1
            news.append(wording.polkitWrongPassword(attempt: attempt))
            return .restartHelper
        }
    }

    /// PAM's messages not said yet, taken to be said now: the helper went quiet after them and no field is open to
    /// say them with. Empty while a field is open or once the request ended.
    public mutating func takeNews() -> [String] {
        guard phase == .helper else { return [] }
        defer { news = [] }
        return news
    }

    /// The user answered the open field: the answer has gone to the helper.
    public mutating func answered() {
        if phase == .asking { phase = .helper }
    }

    /// The helper ended (its output closed) without saying how: a failure, as polkit's library takes it.
    public mutating func helperEnded() -> Step {
        guard phase != .ended else { return .wait }
        phase = .helper
        return receive(.failure)
    }

    /// Esc on the field, or polkitd withdrew the request: cancelled at once, whatever the helper was doing.
    public mutating func cancel() -> Step {
        guard phase != .ended else { return .wait }
        return finish(.cancelled)
    }

    private mutating func finish(_ result: Result) -> Step {
        phase = .ended
        defer { news = [] }
        return .finish(result, news: news)
    }
}
