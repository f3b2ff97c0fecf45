import OTCPromptCore

extension Utterance.StringInterpolation {
    /// Characters as an announcement's text writes them, "9 8 5, 3 9 1": groups apart at ", ",
    /// characters at " ". Lets a test say which part of an expected announcement is spelled. Each group
    /// is a segment of its own and the ", " between them prose, as `Wording` writes a language's
    /// separator.
    public mutating func appendInterpolation(spelled written: String) {
        let groups = Utterance.groups(written: written).map { Utterance.characters([$0]) }
        appendInterpolation(groups.joined(separator: ", "))
    }
}

extension Utterance {
    /// The groups of spelled characters that `written` shows (no symbol name may hold a space).
    public static func groups(written: String) -> [[String]] {
        written.split(separator: ", ", omittingEmptySubsequences: false).map {
            $0.split(separator: " ").map(String.init)
        }
    }
}
