/// What a session presents at one moment, for an output that shows state rather than speaking events (a braille
/// display): the label, the field, where the next character goes, the news while it is news, and the readback
/// Ctrl-R asked for. A masked field is only its count here: no output that takes a view can show a character of it.
public struct SessionView: Equatable, Sendable {
    /// What has been typed, as an output may show it.
    public enum Field: Equatable, Sendable {
        /// The characters as typed (a code, visible text, a question's answer).
        case characters([Character])
        /// A masked field: how many characters, never which.
        case masked(count: Int)

        /// How many characters have been typed.
        public var count: Int {
            switch self {
            case .characters(let characters): characters.count
            case .masked(let count): count
            }
        }
    }

    /// Ctrl-R's answer while it stands.
    public enum ReadBack: Equatable, Sendable {
        /// The characters in the groups they are said in ("985 391").
        case groups([[Character]])
        /// Words in place of characters: a masked field's count ("4 entered"), an empty field.
        case words(String)
    }

    /// The label as drawn before the field ("Verification code: "), made visible; the notice itself when there
    /// is nothing to type.
    public var label: String
    /// nil when there is nothing to type (a notice).
    public var field: Field?
    /// Where the next character goes, counted in characters of the field; nil when nothing is typed here.
    public var cursor: Int?
    /// What just happened that the field does not show ("Wrong code, try 2 of 3."), until the next key changes the
    /// field; at the opening, the caller's lines above the field (a retry's news, what the question is about).
    public var news: String?
    public var readBack: ReadBack?

    public init(
        label: String, field: Field?, cursor: Int? = nil, news: String? = nil, readBack: ReadBack? = nil
    ) {
        self.label = label
        self.field = field
        self.cursor = cursor
        self.news = news
        self.readBack = readBack
    }
}
