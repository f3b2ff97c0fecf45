import OTCPromptCore

/// ssh's "Confirm user presence for key …": an askpass call with SSH_ASKPASS_PROMPT=none while a security key waits
/// for a touch. Nothing is asked: the notice is shown and spoken, no field, nothing on stdout. ssh ends the program
/// with SIGTERM once the key is touched; Esc or Ctrl-C closes the notice sooner, and ssh hears only the exit status.
public enum TouchFrontEnd {
    /// Whether an askpass call is this notice: ssh 8.4 and later say so in SSH_ASKPASS_PROMPT (`SSHAskpassHint`).
    public static func isTouch(environment: [String: String]) -> Bool {
        SSHAskpassHint(environment: environment) == .notice
    }

    /// The notice `prompt` gives, in the options' language, verbosity and time limit. ssh's own request for a touch
    /// ("Confirm user presence for key ED25519-SK SHA256:…") is said as what to do, "Touch your security key.", its
    /// line, whose fingerprint takes seconds to hear, drawn above and said on Ctrl-R or `?`. Other words are said as
    /// the caller gave them: the question's line first, its other lines as details.
    public static func request(prompt: String, configuration: PromptConfiguration) -> Request {
        let text = AskpassPrompt.Lines(prompt)
        var notice = NoticeSession(
            message: text.label, details: text.details, language: configuration.language,
            verbosity: configuration.verbosity, timeLimit: configuration.timeLimit)
        if asksForPresence(text.words) {
            notice = NoticeSession(
                message: notice.wording.touchSecurityKey, details: text.details + [text.label],
                language: configuration.language, verbosity: configuration.verbosity,
                timeLimit: configuration.timeLimit)
            notice.detailsTold = .onReadBack
        }
        return .notice(notice)
    }

    /// ssh's words when a security key waits for a touch (sshsk_sign, OpenSSH 8.2 and later; ssh is not translated).
    static func asksForPresence(_ question: String) -> Bool {
        question.hasPrefix("Confirm user presence for key ")
    }
}
