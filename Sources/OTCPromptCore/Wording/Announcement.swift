/// Something the prompt tells the user: spoken by the speech backend, shown in text mode,
/// and written to the speech log.
public struct Announcement: Equatable, Sendable {
    /// What happened; its raw value is the `event` field of the speech log.
    public enum Event: String, Sendable, CaseIterable {
        case prompt, digit, delete, clear, reject, full, paste, readback, incomplete, complete, cancel, help
        case checking
        case checkFailed = "check-failed"
        /// The check could not run at all: not a verdict on the code.
        case checkError = "check-error"
        case timeLeft = "time-left"
        case timeout
        case confirm
        /// Something about the prompt itself, e.g. that speech fell back to text.
        case notice
        /// A character the terminal sent could not be read in its charset and was not added.
        case unreadable
    }

    /// One part of what is said: prose, or characters to be heard one by one.
    public enum Segment: Equatable, Sendable {
        /// Words read as prose (a caller's text too: a host name, a fingerprint).
        case words(String)
        /// Characters heard one by one, in groups. Each element is one character as it is
        /// written: a letter, a digit, or in free text a symbol's name ("dollar").
        case characters([[String]])
        /// Where the caller's text had a line break (gpg's lines and paragraphs) or one part of an
        /// opening ends (the news, the question): the text backend starts a new line there, after an
        /// empty one for a `blankLine`, so a braille display reads the lines as they were written;
        /// the voice and the speech log have `spoken` in its place (", " or " "), one flow.
        case lineBreak(spoken: String, blankLine: Bool)

        /// As logged, and shown on one line: characters spaced, groups separated by ", ".
        public var text: String {
            switch self {
            case .words(let words): words
            case .characters(let groups): groups.map { $0.joined(separator: " ") }.joined(separator: ", ")
            case .lineBreak(let spoken, _): spoken
            }
        }
    }

    public var event: Event
    /// What is said; equality compares it, not `text`, which is derived from it.
    public var utterance: Utterance
    /// The last words before the prompt exits: played to their end (bounded), never cut off.
    public var isFinal: Bool
    /// An opening's first sentence, which `utterance` holds after any news or origin marking: what is asked and
    /// how to answer ("Allow use of key joe@laptop? Yes or no."). Its details follow it, for a key to cut short.
    public var lead: Utterance?

    /// - Parameter isFinal: nil takes the event's usual role: `complete`, `cancel`, `timeout` and
    ///   `confirm` end the prompt; a `check-failed` with no attempts left passes true.
    public init(_ event: Event, _ utterance: Utterance, isFinal: Bool? = nil) {
        self.event = event
        self.utterance = utterance
        self.isFinal = isFinal ?? Self.endsThePrompt(event)
    }

    /// Prose only: `text` is read as words, nothing in it is spelled as a code.
    public init(_ event: Event, _ text: String, isFinal: Bool? = nil) {
        self.init(event, Utterance(text), isFinal: isFinal)
    }

    /// The parts of what is said, in order.
    public var segments: [Segment] { utterance.segments }

    /// The words, exactly as shown on the screen and written to the speech log. In mask mode this
    /// never contains a character of the code.
    public var text: String { utterance.text }

    /// The words as the text backend writes them: one line per line break (`Segment.lineBreak`).
    public var lines: [String] { utterance.lines }

    /// What the voice is handed: the same words, identifiers spelled and punctuation said once (`SpokenForm`).
    public var said: Utterance { SpokenForm.said(utterance) }

    /// The opening `text` whose first sentence is `lead`.
    public init(_ event: Event, lead: Utterance, _ utterance: Utterance) {
        self.init(event, utterance)
        self.lead = lead
    }

    private static func endsThePrompt(_ event: Event) -> Bool {
        switch event {
        case .complete, .cancel, .timeout, .confirm: return true
        default: return false
        }
    }
}
