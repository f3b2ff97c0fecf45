/// What an askpass caller (ssh's SSH_ASKPASS, sudo -A, git's GIT_ASKPASS) asks for, read from its prompt text.
///
/// Misreading a password prompt as a code prompt would lock the user out (a 6-digit field cannot take a
/// password), while the reverse still works (a masked free-text field takes a code too), so every doubt
/// resolves to `.secret`.
public struct AskpassPrompt: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// A one-time code: the normal code field.
        case code
        /// A yes/no question. Yes: print "yes" and exit 0; no: exit 1 with nothing on stdout. ssh reads the
        /// host-key question's answer as text and SSH_ASKPASS_PROMPT=confirm's from the exit status (where an
        /// empty or "yes" answer also counts as yes), so this one answer suits both.
        case confirmation
        /// Free text, masked, any length, Enter submits: a password, a passphrase, a smart-card or FIDO PIN.
        case secret
        /// Free text shown and spoken, Enter submits: a user name is not a secret, and hearing it helps.
        case text
    }

    public var kind: Kind
    /// The question, trimmed for the field: "(joe@host) Verification code: " → "Verification code (joe@host)".
    ///
    /// The origin is kept, after the words, because the user must know where the code is going (a code typed for
    /// the wrong host is a code given away), and after them so that the words that say what to type come first.
    public var label: String
    /// "joe@host" from "(joe@host) …", "sudo" from "[sudo] …"; nil when the prompt names none.
    public var origin: String?
    /// The other lines of a multi-line prompt (ssh's host-key question: the host and the key's fingerprint), to
    /// show and speak before the question.
    public var details: [String]
    /// For a confirmation: whether a key fingerprint is an answer (ssh's new-host question asks for "yes", "no"
    /// or the fingerprint, and compares the fingerprint itself).
    public var acceptsFingerprint: Bool
    /// For a confirmation: the answers the question itself names ("yes" and "no" in ssh's English, whatever the
    /// prompt's language), accepted beside the language's own words.
    public var namedAnswers: ConfirmLabels

    public init(
        kind: Kind, label: String, origin: String? = nil, details: [String] = [], acceptsFingerprint: Bool = false,
        namedAnswers: ConfirmLabels = ConfirmLabels()
    ) {
        self.kind = kind
        self.label = label
        self.origin = origin
        self.details = details
        self.acceptsFingerprint = acceptsFingerprint
        self.namedAnswers = namedAnswers
    }

    /// Reads the prompt text an askpass caller passes as its first argument. SSH_ASKPASS_PROMPT=none is no question
    /// and never comes here: the touch front end recognises it first (`TouchFrontEnd`).
    /// - Parameter environment: SSH_ASKPASS_PROMPT ("confirm"), set by ssh 8.4 and later.
    public static func classify(_ text: String, environment: [String: String]) -> AskpassPrompt {
        let lines = Lines(text)
        let (label, origin, details) = (lines.label, lines.origin, lines.details)
        if SSHAskpassHint(environment: environment) == .confirm {
            return AskpassPrompt(
                kind: .confirmation, label: withoutAnswerChoices(label), origin: origin, details: details)
        }
        // ssh's host-key question arrives without SSH_ASKPASS_PROMPT (it is read as text); its words tell.
        if PromptWords.asksYesOrNo(lines.question) {
            return AskpassPrompt(
                kind: .confirmation, label: withoutAnswerChoices(label), origin: origin, details: details,
                acceptsFingerprint: lines.question.lowercased().contains(text: "fingerprint"),
                namedAnswers: ConfirmLabels(yes: "yes", no: "no"))
        }
        return AskpassPrompt(kind: PromptWords(lines.words).kind, label: label, origin: origin, details: details)
    }

    /// A caller's prompt text read for its lines, before what it asks is decided; a notice that asks nothing (ssh's
    /// touch request, `TouchFrontEnd`) is read the same way.
    public struct Lines: Sendable {
        /// The question line, trimmed for the field.
        let question: String
        /// "joe@host" from "(joe@host) …", "sudo" from "[sudo] …"; nil when the question names none.
        public let origin: String?
        /// The question without its origin.
        public let words: String
        /// The other lines, made visible.
        public let details: [String]

        /// The question's words, then where it comes from: "Verification code (joe@host)".
        public var label: String { origin.map { "\(words) (\($0))" } ?? words }

        public init(_ text: String) {
            // The question is the last line that asks (ends in "?" or ":"); ssh-agent's confirmation asks first
            // ("Allow use of key …?") and gives the fingerprint after.
            let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingBlanks() }.filter { !$0.isEmpty }
            let asking = lines.lastIndex { $0.hasSuffix("?") || $0.hasSuffix(":") } ?? lines.indices.last
            question = asking.map { PromptLabel.trimmed(lines[$0]) } ?? ""
            details = lines.indices.filter { $0 != asking }.map { UntrustedText.visible(String(lines[$0])) }
            let split = AskpassPrompt.splitOrigin(question)
            origin = split.origin
            words = split.rest
        }
    }

    /// "(joe@host) Verification code" → ("joe@host", "Verification code"); "[sudo] password for joe" → ("sudo", …).
    static func splitOrigin(_ line: String) -> (origin: String?, rest: String) {
        guard let open = line.first, open == "(" || open == "[" else { return (nil, line) }
        let close: Character = open == "(" ? ")" : "]"
        guard let end = line.firstIndex(of: close) else { return (nil, line) }
        let origin = line[line.index(after: line.startIndex)..<end].trimmingBlanks()
        let rest = line[line.index(after: end)...].trimmingBlanks()
        guard !origin.isEmpty, !rest.isEmpty else { return (nil, line) }
        return (origin, rest)
    }

    /// "Are you sure you want to continue connecting (yes/no/[fingerprint])?" → "… continue connecting?": the
    /// prompt's own keys (y, n) replace the typed answers.
    static func withoutAnswerChoices(_ label: String) -> String {
        guard let start = label.firstRange(ofText: "(yes/no") else { return label }
        guard let end = label[start.upperBound...].firstIndex(of: ")") else { return label }
        let before = label[..<start.lowerBound].trimmingBlanks()
        let after = label[label.index(after: end)...].trimmingBlanks()
        return before + after
    }
}

extension StringProtocol {
    fileprivate func trimmingBlanks() -> String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }

}

/// A prompt's words, lower-cased, without what its quotes hold: a path, a URL or a key name says nothing about
/// what is asked ("Username for 'https://token.example'" asks for a user name).
struct PromptWords {
    let words: [String]

    init(_ text: String) {
        words = Self.unquoted(text.lowercased()).split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(
            String.init)
    }

    /// Decided in this order, the first that matches: the prompt names a one-time password ("One-time password",
    /// "OTP"); it names a secret (password, passphrase, PIN, passcode, senha): a PIN unlocks a smart card or a
    /// security key, is reused and may hold letters, so it is a secret, not a code; it names a code ("Verification
    /// code", "Token", "2FA", "código") but not an access or API token; it asks for a user name; else a secret.
    var kind: AskpassPrompt.Kind {
        if Self.oneTime.contains(where: contains) { return .code }
        if Self.secrets.contains(where: contains) { return .secret }
        if Self.codes.contains(where: contains), !Self.longLivedTokens.contains(where: contains) { return .code }
        if Self.userNames.contains(where: contains) { return .text }
        return .secret
    }

    /// ssh's host-key questions: "… (yes/no/[fingerprint])?" and "Please type 'yes', 'no' or the fingerprint: ".
    static func asksYesOrNo(_ text: String) -> Bool {
        let text = text.lowercased()
        return text.contains(text: "(yes/no") || (text.contains(text: "'yes'") && text.contains(text: "'no'"))
    }

    private func contains(_ phrase: [String]) -> Bool {
        guard !phrase.isEmpty, words.count >= phrase.count else { return false }
        return (0...(words.count - phrase.count)).contains { words[$0..<($0 + phrase.count)].elementsEqual(phrase) }
    }

    // The keywords are catalog messages; a caller's prompt is in the caller's locale, not necessarily the
    // prompt's language, so every language's words count.
    private static let oneTime = keywords("askpass.oneTime")
    private static let secrets = keywords("askpass.secrets")
    private static let codes = keywords("askpass.codes")
    private static let longLivedTokens = keywords("askpass.longLivedTokens")
    private static let userNames = keywords("askpass.userNames")

    /// The phrases of a keyword message in every language, each as its words.
    private static func keywords(_ name: String) -> [[String]] {
        let phrases: [String] = Language.allCases.flatMap { $0.catalog.list(name) }
        return phrases.map { phrase in phrase.split(separator: " ").map { String($0) } }
    }

    /// The text without quoted spans ('…', "…", ‘…’, “…”); an opening quote that is never closed is an apostrophe.
    private static func unquoted(_ text: String) -> String {
        let pairs: [Character: Character] = ["'": "'", "\"": "\"", "‘": "’", "“": "”"]
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if let close = pairs[character], let end = text[text.index(after: index)...].firstIndex(of: close) {
                result.append(" ")
                index = text.index(after: end)
                continue
            }
            result.append(character)
            index = text.index(after: index)
        }
        return result
    }
}
