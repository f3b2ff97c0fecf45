/// A deliberate answer to a `ConfirmSession`.
public enum ConfirmAnswer: Equatable, Sendable {
    case yes, no
    /// The caller's cancel label typed (gpg-agent's SETCANCEL): the operation is cancelled.
    case cancelled
    /// A key fingerprint, passed on to ssh exactly as typed.
    case fingerprint(String)

    /// The answer `typed` gives, nil when it is none: a whole yes or no word of the session's
    /// language in any case ("yes"/"no", "sim"/"não"; never a single letter), one of the caller's
    /// `labels` typed whole in any case, or (where accepted) a fingerprint: "SHA256:" and base64, or
    /// "MD5:" and colon-separated hex.
    public init?(typed: String, wording: Wording, labels: ConfirmLabels = ConfirmLabels(), acceptsFingerprint: Bool) {
        // A paste drops its blanks (`ConfirmSession`): a label is compared without them, whole.
        func same(_ label: String?) -> Bool {
            guard let label else { return false }
            return label.lowercased().filter { !$0.isWhitespace } == typed.lowercased().filter { !$0.isWhitespace }
        }
        if let yes = wording.answerWord(typed) {
            self = yes ? .yes : .no
        } else if same(labels.yes) {
            self = .yes
        } else if same(labels.no) {
            self = .no
        } else if same(labels.cancel) {
            self = .cancelled
        } else if acceptsFingerprint, Self.isFingerprint(typed) {
            self = .fingerprint(typed)
        } else {
            return nil
        }
    }

    /// The answer `typed` gives when it is one the question's own words name (`ConfirmSession.namedAnswers`), whole,
    /// in any case; nil otherwise.
    init?(named typed: String, _ named: ConfirmLabels) {
        let word = typed.lowercased()
        if named.yes.map({ $0.lowercased() == word }) == true {
            self = .yes
        } else if named.no.map({ $0.lowercased() == word }) == true {
            self = .no
        } else {
            return nil
        }
    }

    static func isFingerprint(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        let hash = text[..<colon].uppercased()
        let value = text[text.index(after: colon)...]
        switch hash {
        case "SHA256":
            return value.count >= 40
                && value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+/=".contains($0)) }
        case "MD5":
            return value.count == 47 && value.allSatisfy { $0.isHexDigit || $0 == ":" }
        default:
            return false
        }
    }
}

/// A caller's names for a question's answers (gpg-agent's SETOK, SETNOTOK, SETCANCEL), said and
/// shown as the choices; typing one whole is that answer. Nil where the caller named none.
public struct ConfirmLabels: Equatable, Sendable {
    public var yes: String?
    public var no: String?
    public var cancel: String?

    public init(yes: String? = nil, no: String? = nil, cancel: String? = nil) {
        self.yes = yes
        self.no = no
        self.cancel = cancel
    }

    /// Whether the caller named any answer.
    public var isEmpty: Bool { yes == nil && no == nil && cancel == nil }
}
