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

    /// `{"event": "digit", "text": "9", "ms": 12}`: keys in that order, one line, no line ending; then
    /// `"said": "…"` and `"lead": "…"` when set, then `"speech": "…"` when set.
    public var jsonLine: String {
        "{\"event\": " + Self.jsonString(event.rawValue) + ", \"text\": " + Self.jsonString(text)
            + ", \"ms\": \(milliseconds)" + (said.map { ", \"said\": " + Self.jsonString($0) } ?? "")
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
