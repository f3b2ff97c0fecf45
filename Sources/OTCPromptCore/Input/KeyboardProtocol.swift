/// kitty's keyboard protocol, in its "disambiguate" mode: the Esc key comes as `CSI 27 u`, never as a lone ESC,
/// so Esc is known at once, over any link, with no wait. Asked for only where a terminal may have it, turned on
/// only when the terminal answered that it has (`CSI ? flags u`), and turned off on every way out.
///
/// The question is followed by a request for the terminal's primary attributes (`CSI c`), which every terminal
/// answers, after its answer to the first: once that answer is in, no reply is still on its way to land in the
/// shell after the prompt.
public enum KeyboardProtocol {
    /// Whether the terminal at `location` may be asked: not a dumb terminal, nor one asked for plain output
    /// (`ACCESSIBLE`), nor the Linux console, tmux, screen or Emacs' term, which do not have the protocol.
    /// Skipping needs no proof, so a variable that merely says so (TMUX, STY, TERM) is enough.
    public static func mayAsk(
        location: SessionLocation, capabilities: TerminalCapabilities, environment: [String: String]
    ) -> Bool {
        let term = environment["TERM"] ?? ""
        let multiplexed =
            location.multiplexer != nil || environment["TMUX"] != nil || environment["STY"] != nil
            || term.hasPrefix("screen") || term.hasPrefix("tmux")
        return !capabilities.isDumb && !capabilities.wantsPlainOutput && location.place != .console
            && !term.hasPrefix("linux") && !term.hasPrefix("eterm") && !multiplexed
    }

    /// How long after asking the prompt may still wait for the answers when it ends sooner (a code typed ahead
    /// that submits at once): the Esc wait, which is the link's, and at least 0.1 s. Past it, a terminal that has
    /// not answered is taken not to answer at all: its answers, had it any, come before any key typed once the
    /// prompt was seen, since the question was written before the prompt.
    public static func answerPatience(escapeDelay: Duration) -> Duration { max(escapeDelay, .milliseconds(100)) }
}
