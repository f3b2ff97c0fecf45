import OTCPromptCore

/// ssh's "Confirm user presence for key …": an askpass call with SSH_ASKPASS_PROMPT=none while a security key waits
/// for a touch. Nothing is asked: the notice is shown and spoken, no field, nothing on stdout. ssh ends the program
/// with SIGTERM once the key is touched; Esc or Ctrl-C closes the notice sooner, and ssh hears only the exit status.
public enum TouchFrontEnd {
    /// Whether an askpass call is this notice: ssh 8.4 and later say so in SSH_ASKPASS_PROMPT. A protocol's own
    /// variable, set by the caller for this one call: it names what is asked, never where or how to speak.
    public static func isTouch(environment: [String: String]) -> Bool {
        environment["SSH_ASKPASS_PROMPT"] == "none"
    }

    /// The notice `prompt` gives, in the options' language, verbosity and time limit: ssh's own words, the
    /// question's line first, its other lines as details.
    public static func request(prompt: String, configuration: PromptConfiguration) -> Request {
        let text = AskpassPrompt.Lines(prompt)
        return .notice(
            NoticeSession(
                message: text.label, details: text.details, language: configuration.language,
                verbosity: configuration.verbosity, timeLimit: configuration.timeLimit))
    }
}
