/// How long an Esc read alone waits for the rest of a key before it counts as Esc, and why: one rule for the
/// prompt and for `--doctor`.
///
/// A terminal of this machine (a pseudo-terminal of its display, a virtual console) writes each key's bytes in
/// one write, so an Esc read alone is the Esc key: a short wait is only a margin (fish waits 30 ms, neovim
/// 50 ms), and the shell gets back at once the keys typed after it. A link (SSH, mosh, a serial line) may
/// split a key: there the wait is longer, and grows once a split is seen (`PromptLoop`). A wait the user set
/// always wins.
public struct EscapeWait: Equatable, Sendable {
    public enum Reason: Equatable, Sendable {
        /// `--escape-delay`, or `escape-delay` in the config file.
        case chosen
        /// A terminal of this machine, which writes each key whole.
        case keysArriveWhole
        /// A link that may split keys, or a place not known.
        case linkMaySplitKeys
    }

    /// The wait before a lone Esc counts; it may grow on a link seen to split keys.
    public var delay: Duration
    public var reason: Reason
    /// Where the person is, as the wait was chosen from.
    public var location: SessionLocation

    /// At a terminal of this machine.
    public static let whole: Duration = .milliseconds(25)
    /// Over a link, or where the place is not known: below readline's 0.5 s, above a link's usual jitter.
    public static let link: Duration = .milliseconds(300)

    public init(delay: Duration, reason: Reason, location: SessionLocation) {
        self.delay = delay
        self.reason = reason
        self.location = location
    }

    /// The wait for a person at `location`; `chosen`, when the user set one, wins.
    public static func choose(chosen: Duration?, location: SessionLocation) -> EscapeWait {
        if let chosen { return EscapeWait(delay: chosen, reason: .chosen, location: location) }
        return keysArriveWhole(at: location)
            ? EscapeWait(delay: whole, reason: .keysArriveWhole, location: location)
            : EscapeWait(delay: link, reason: .linkMaySplitKeys, location: location)
    }

    /// A virtual console, or a pseudo-terminal of this machine's own display (through tmux or screen, the
    /// client's): the keyboard's keys come in one write each. A serial line or a console device that may be
    /// one is a link, and so is anything SSH or mosh opened.
    static func keysArriveWhole(at location: SessionLocation) -> Bool {
        switch location.place {
        case .console: true
        case .local: location.terminal?.hasPrefix("/dev/pts/") == true
        case .remote, .unknown: false
        }
    }

    /// For `--doctor`: which wait applies and why, one sentence.
    public var sentence: String {
        let milliseconds = Int(delay / .milliseconds(1))
        switch reason {
        case .chosen:
            return "Esc: a lone Esc ends the prompt after \(milliseconds) ms without more bytes, as escape-delay sets."
        case .keysArriveWhole:
            return "Esc: a lone Esc ends the prompt after \(milliseconds) ms, because you are at this machine, "
                + "whose terminal writes each key at once."
        case .linkMaySplitKeys:
            let why =
                switch location.place {
                case .remote: "you are at another machine, and the link may split a key"
                case .local, .console:
                    "\(location.terminal ?? "the terminal") may be a serial line, which may split a key"
                case .unknown: "where you are is not known, and a link may split a key"
                }
            return "Esc: a lone Esc ends the prompt after \(milliseconds) ms (longer on a link seen to split keys, up "
                + "to 1 s), because \(why); set escape-delay to change it."
        }
    }
}
