/// One line of the speech log (`--speech-log PATH`, JSON Lines): what was said, and when.
public struct SpeechLogEntry: Equatable, Sendable {
    public var event: Announcement.Event
    public var text: String
    /// Milliseconds since the prompt started.
    public var milliseconds: Int
    /// On the first line only: how announcements reach the user and why ("speechd: speech-dispatcher answers
    /// on its socket"), so that a log says which way speech went.
    public var speech: String?
    /// The words handed to the voice, where they differ from `text` (an identifier spelled: `SpokenForm`); nil
    /// where the voice says `text` as it is.
    public var said: String?
    /// An opening's first sentence as the voice says it (`Announcement.lead`): what is asked and how to answer.
    public var lead: String?
    /// Which announcement of the prompt this is, from 1, for its outcome's line (`SpeechLogOutcome`); nil: not written.
    public var number: Int?

    public init(
        event: Announcement.Event, text: String, milliseconds: Int, said: String? = nil, lead: String? = nil
    ) {
        self.event = event
        self.text = text
        self.milliseconds = milliseconds
        self.said = said
        self.lead = lead
    }

    public init(_ announcement: Announcement, milliseconds: Int) {
        let said = announcement.said.text
        self.init(
            event: announcement.event, text: announcement.text, milliseconds: milliseconds,
            said: said == announcement.text ? nil : said, lead: announcement.lead.map { SpokenForm.said($0).text })
    }

    /// `{"event": "digit", "text": "9", "ms": 12}`: keys in that order, one line, no line ending; then `"n": 3`,
    /// `"said": "…"` and `"lead": "…"` when set, then `"speech": "…"` when set.
    public var jsonLine: String {
        "{\"event\": " + Self.jsonString(event.rawValue) + ", \"text\": " + Self.jsonString(text)
            + ", \"ms\": \(milliseconds)" + (number.map { ", \"n\": \($0)" } ?? "")
            + (said.map { ", \"said\": " + Self.jsonString($0) } ?? "")
            + (lead.map { ", \"lead\": " + Self.jsonString($0) } ?? "")
            + (speech.map { ", \"speech\": " + Self.jsonString($0) } ?? "") + "}"
    }

    /// `string` as a JSON string literal (RFC 8259): quotes and backslashes escaped, every control
    /// character as \uXXXX, and DEL, U+2028, U+2029 and U+FEFF escaped too, so the line stays one
    /// line and no reader drops an invisible character. Everything else is written as UTF-8.
    public static func jsonString(_ string: String) -> String {
        var literal = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": literal += "\\\""
            case "\\": literal += "\\\\"
            case "\u{0}"..."\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}", "\u{FEFF}":
                literal += unicodeEscape(scalar.value)
            default: literal.unicodeScalars.append(scalar)
            }
        }
        return literal + "\""
    }

    private static func unicodeEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}

/// The second line of an announcement in the speech log, written once the voice has done with it: whether it was
/// heard to its end or cut, and by what, so that a listener's experience can be read back from the log.
/// `{"event": "heard", "of": 3, "began": 120, "ms": 900}`: announcement 3 began to be heard 120 ms after the prompt
/// started and ended at 900. `{"event": "cut", "of": 1, "by": "digit", "began": 40, "ms": 350}`: announcement 1 was
/// cut at 350 by the next one, a digit's echo; `"by": "end"` when the prompt ended over it. No `began`: nothing of
/// it was heard. It names the announcement and an event, never what was said, so it holds nothing of a secret.
public struct SpeechLogOutcome: Equatable, Sendable {
    /// Which announcement (its line's `n`).
    public var of: Int
    /// Milliseconds since the prompt started, when it began to be heard; nil: never.
    public var began: Int?
    /// What cut it: the next announcement's event, or "end"; nil when it was heard to its end.
    public var cutBy: String?
    /// Milliseconds since the prompt started, when it ended or was cut.
    public var milliseconds: Int

    public init(of: Int, began: Int?, cutBy: String?, milliseconds: Int) {
        self.of = of
        self.began = began
        self.cutBy = cutBy
        self.milliseconds = milliseconds
    }

    /// The events an outcome line has, apart from those of the announcements (`Announcement.Event`).
    public static let events: Set<String> = ["heard", "cut"]

    public var jsonLine: String {
        "{\"event\": " + (cutBy == nil ? "\"heard\"" : "\"cut\"") + ", \"of\": \(of)"
            + (cutBy.map { ", \"by\": " + SpeechLogEntry.jsonString($0) } ?? "")
            + (began.map { ", \"began\": \($0)" } ?? "") + ", \"ms\": \(milliseconds)}"
    }
}
