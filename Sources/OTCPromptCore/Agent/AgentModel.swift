/// The password agent's decisions as a value: its requests, whose field is open, the keys held, and what is being
/// said and how far it got. Everything that happens is an `Event` given to `update`, which returns the new state's
/// `Effect`s; the agent's loop only translates between this and the world (the directories, the terminal, the
/// voice, the clock), so that every interleaving of requests, keys and speech can be driven and checked here.
///
/// The rules it keeps:
/// - a key reaches a field only once that field's question has begun to be heard, and never after a switch (a
///   request withdrawn under the user's fingers) until what comes next (the next question, or the wait's line) has
///   been heard whole and the keys have stopped; every key held is counted when it is dropped;
/// - a question's first sentence is heard whole before anything else is said, the user's own keys aside;
/// - what else waits is said after it in the same breath ("Passphrase for alpha. 2 more waiting."), counted when
///   it is said; requests that come later are one line of news after it, counted then ("2 more waiting: beta,
///   gamma."), at most once a `newsInterval`;
/// - Esc sends its decline before "cancelled" is said.
public struct AgentModel: Equatable, Sendable {
    /// A request, by its ask file's name.
    public typealias RequestID = String

    public enum Phase: Equatable, Sendable {
        case waiting
        case asked
        case withdrawn
        /// Not to be asked: its process gone, its time passed.
        case skipped
        /// Not a request that can be read.
        case refused
        case answered
    }

    public struct Request: Equatable, Sendable {
        public var id: RequestID
        /// What it is for, in a list ("disk sda2").
        public var subject: String
        /// Its question, as the querier wrote it.
        public var question: String
        public var phase: Phase
        /// Said the moment its password has been sent ("Touch your security key."): what the asker does next needs
        /// the user.
        public var afterAnswer: String?
    }

    /// A key as far as the agent's decisions go; the field itself keeps what a character is.
    public enum Key: Equatable, Sendable {
        case character
        case escape
        case submit
        case readBack
    }

    public enum Event: Equatable, Sendable {
        /// A request's file appeared (`askable`: read and checked; otherwise refused or skipped); `afterAnswer` is
        /// said once its password has been sent.
        case appeared(RequestID, subject: String, question: String, askable: Bool, afterAnswer: String? = nil)
        case changed(RequestID, subject: String, question: String, askable: Bool, afterAnswer: String? = nil)
        case vanished(RequestID)
        /// A key, numbered by the world so that where it went can be followed.
        case key(Key, serial: Int)
        case speechStarted(Int)
        case speechFinished(Int)
        case speechCut(Int)
        case clock(Duration)
        case answerSent(RequestID)
        case answerFailed(RequestID)
        /// What the world saw at one moment (requests found together): nothing is decided until all are known.
        indirect case together([Event])
    }

    public enum Answer: Equatable, Sendable {
        /// The keys typed into the field, by serial.
        case password(keys: [Int])
        case cancel
    }

    public enum Effect: Equatable, Sendable {
        case say(Utterance)
        case show(String)
        case send(RequestID, Answer)
        /// The keys held, dropped, by serial: their count is what is said.
        case dropHeld(keys: [Int])
        case wake(at: Duration)
        /// The request's file is read (once per appearance or change).
        case examine(RequestID)
    }

    public enum Kind: Equatable, Sendable {
        /// A field's opening: its news first ("Request withdrawn."), then its question.
        case question(RequestID)
        /// What waits besides the field, counted when said.
        case news(count: Int)
        case keysDropped(count: Int)
        /// What a key of the user's did: an echo, "cancelled", a readback.
        case reply
        case readBack(count: Int)
        case waiting
        /// What the asker needs of the user once the answer has reached it ("Touch your security key.").
        case afterAnswer(RequestID)
    }

    public struct Utterance: Equatable, Sendable {
        public var serial: Int
        public var kind: Kind
        public var text: String
        /// How many wait besides the open request, when the words say it (a question's opening, news, a readback).
        public var count: Int? = nil

        /// Said because of the user's own key: it may cut what is being said.
        public var isUsers: Bool {
            switch kind {
            case .reply, .readBack: true
            default: false
            }
        }
    }

    /// The least time between two lines of news: a flood of arrivals is one line, then another a second later.
    public static let newsInterval: Duration = .seconds(1)

    public internal(set) var now: Duration = .zero
    /// Every request seen, in the order they came.
    public internal(set) var requests: [Request] = []
    /// The request whose field is open.
    public internal(set) var open: RequestID?
    /// The keys in the open field, by serial.
    public internal(set) var field: [Int] = []
    /// The open field's question: its serial, whether it has begun to be heard and whether it was heard whole.
    public internal(set) var question: (serial: Int, began: Bool, heard: Bool)?
    /// What is being said (given to the voice, not finished nor cut).
    public internal(set) var speaking: Utterance?
    /// What is to be said after it, decided when its turn comes (a count is counted then).
    public internal(set) var pending: [Kind] = []
    /// Keys held since a switch or before a question began, by serial; nil when not holding.
    public internal(set) var held: [Int]?
    public internal(set) var lastKeyAt: Duration = .zero
    /// Requests arrived or gone since the last news: news is due.
    public internal(set) var newsDue = false
    public internal(set) var lastNewsAt: Duration?
    /// The keys of fields closed without an answer, wiped.
    public internal(set) var wiped: [Int] = []
    /// A line of the wait is on the screen and said.
    public internal(set) var isWaiting = false
    /// The wait's line was heard whole: a hold from a switch may end in the wait, and a key there is the wait's
    /// (Esc stops the agent) rather than one meant for the request withdrawn.
    public internal(set) var waitHeard = false
    /// A request was withdrawn under the user's fingers and that has not been heard yet: said first.
    public internal(set) var switched = false
    /// The open field's opening, said when its turn comes.
    public internal(set) var opening: String?
    /// A password sent to a request with something to say after it: nothing else is opened or said until the send
    /// is known, then that is said first.
    public internal(set) var awaitingSend: RequestID?
    /// What waits as last counted to the user (by an opening or news).
    var counted: Set<RequestID> = []
    var serials = 0
    let wording: Wording
    /// How long the keys must stop before a hold ends (`TypeAheadRule.switchQuiet`).
    public let quiet: Duration

    public init(language: Language = Language(rawValue: "en")!, quiet: Duration = TypeAheadRule.switchQuiet) {
        wording = Wording(language: language)
        self.quiet = quiet
    }

    public static func == (lhs: AgentModel, rhs: AgentModel) -> Bool {
        lhs.now == rhs.now && lhs.requests == rhs.requests && lhs.open == rhs.open && lhs.field == rhs.field
            && lhs.question?.serial == rhs.question?.serial && lhs.question?.began == rhs.question?.began
            && lhs.question?.heard == rhs.question?.heard && lhs.speaking == rhs.speaking
            && lhs.pending == rhs.pending && lhs.held == rhs.held && lhs.serials == rhs.serials
            && lhs.awaitingSend == rhs.awaitingSend
    }

    /// The requests waiting besides the open one, oldest first: the truth any count said is taken from.
    public var waiting: [Request] { requests.filter { $0.phase == .waiting } }

    /// "2 more waiting: beta, gamma.", the first few named; nil when none waits.
    public func waitingLine() -> String? {
        let others = waiting
        guard !others.isEmpty else { return nil }
        return wording.agentWaiting(others.count, subjects: others.prefix(Wording.agentSubjectsNamed).map(\.subject))
    }

    /// Sentences said one after another, each ended once: "Passphrase for beta:" and "2 more waiting." are
    /// "Passphrase for beta. 2 more waiting.", never "beta:. 2".
    public static func sentences(_ parts: [String]) -> String {
        parts.map(sentence).filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// `text` ended by one full stop, question or exclamation mark; a trailing colon or stop is replaced.
    public static func sentence(_ text: String) -> String {
        var trimmed = Substring(text)
        while let last = trimmed.last, last == " " || last == ":" || last == "," || last == ";" {
            trimmed = trimmed.dropLast()
        }
        guard let last = trimmed.last else { return "" }
        return ".?!…".contains(last) ? String(trimmed) : trimmed + "."
    }
}
