import OTCPromptCore

/// What a caller asked for, whichever front end it came through: the one thing the prompt runs.
///
/// Every front end turns its caller's protocol into a `Request`, the prompt runs its `session`, and the front end
/// maps the `PromptOutcome` back (`Delivery`, a pinentry's `DialogResult`).
public struct Request: Sendable {
    /// The four things that can be asked.
    public enum Ask: Sendable {
        /// A code, or a free-text secret or text (`PromptConfiguration.kind`).
        case field(PromptConfiguration)
        /// A yes/no question, with its caller's labels.
        case question(ConfirmSession)
        /// A notice that needs no answer, or only an Enter.
        case notice(NoticeSession)
    }

    public var ask: Ask
    /// Whether keys typed before the prompt appeared count: a code typed ahead at `otc-prompt` does; a caller's
    /// field or question takes only keys typed after it appeared (a leftover from the previous prompt is no answer).
    public var typeAhead: TypeAheadRule

    public init(_ ask: Ask, typeAhead: TypeAheadRule) {
        self.ask = ask
        self.typeAhead = typeAhead
    }

    /// A question or a notice: keys typed within `ConfirmSession.grace` of it are no answer.
    public static func question(_ question: ConfirmSession) -> Request {
        Request(.question(question), typeAhead: .discarded(grace: ConfirmSession.grace))
    }

    public static func notice(_ notice: NoticeSession) -> Request {
        Request(.notice(notice), typeAhead: .discarded(grace: ConfirmSession.grace))
    }

    /// The session that asks it.
    public var session: any InteractiveSession {
        switch ask {
        case .field(let configuration): PromptSession(configuration: configuration)
        case .question(let question): question
        case .notice(let notice): notice
        }
    }

    /// Boxes are for codes: a free-text secret of up to 256 characters, a question and a notice are drawn as a line.
    public var drawsBoxes: Bool {
        if case .field(let configuration) = ask { return configuration.kind == .code }
        return false
    }

    /// Whether a `--check` command may judge the answer: only a field's.
    public var isField: Bool {
        if case .field = ask { return true }
        return false
    }

    /// The caller's lines before its question, drawn above the field: a retry's news first.
    public var details: [String] {
        switch ask {
        case .field(let configuration):
            (configuration.news + configuration.details + configuration.aboutOnRequest).flatMap(Wording.lines)
        case .question(let question): question.shownLines
        case .notice(let notice): notice.shownLines
        }
    }

    /// The request with `lines` as news, before anything it had: drawn first above the field, and said first, before
    /// the question (a request withdrawn, a retry's error).
    public func withNews(_ lines: [String]) -> Request {
        guard !lines.isEmpty else { return self }
        var request = self
        switch ask {
        case .field(var configuration):
            configuration.news.insert(contentsOf: lines, at: 0)
            request.ask = .field(configuration)
        case .question(var question):
            question.news.insert(contentsOf: lines, at: 0)
            request.ask = .question(question)
        case .notice(var notice):
            notice.news.insert(contentsOf: lines, at: 0)
            request.ask = .notice(notice)
        }
        return request
    }

    /// The request with `lines` first among its details, in their order: drawn above the field and said with the
    /// opening, after the question.
    public func withDetails(_ lines: [String]) -> Request {
        lines.reversed().reduce(self) { $0.withDetail($1) }
    }

    public func withDetail(_ line: String) -> Request {
        var request = self
        switch ask {
        case .field(var configuration):
            configuration.details.insert(line, at: 0)
            request.ask = .field(configuration)
        case .question(var question):
            question.details.insert(line, at: 0)
            request.ask = .question(question)
        case .notice(var notice):
            notice.details.insert(line, at: 0)
            request.ask = .notice(notice)
        }
        return request
    }
}

extension PromptConfiguration {
    /// A free-text field with this configuration's language, limits and check.
    func freeText(label: String, mask: Bool) -> PromptConfiguration {
        var field = PromptConfiguration.freeText(
            label: label, mask: mask, language: language, verbosity: verbosity, checksCode: checksCode,
            attempts: attempts, timeLimit: timeLimit)
        field.spelling = spelling
        return field
    }
}
