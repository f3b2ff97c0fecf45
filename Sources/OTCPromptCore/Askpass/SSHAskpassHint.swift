/// What ssh (8.4 and later) says in SSH_ASKPASS_PROMPT about the one askpass call it makes; the only place that
/// variable is read. A protocol's own variable, set by the caller for this one call: it names what is asked, never
/// where or how to speak.
public enum SSHAskpassHint: String, Sendable {
    /// A yes/no question, answered by the exit status (`AskpassPrompt.classify`).
    case confirm
    /// Nothing is asked: a notice, such as a security key waiting for a touch (`TouchFrontEnd`).
    case notice = "none"

    /// The hint the caller's environment gives; nil when it gives none, or one this program does not know.
    public init?(environment: [String: String]) {
        guard let text = environment["SSH_ASKPASS_PROMPT"] else { return nil }
        self.init(rawValue: text)
    }
}
