/// What an announcement says, as segments: prose, and characters to be spelled. `Wording` builds
/// it, so no backend has to guess from flat text which characters are a code.
///
/// Kept normal: adjacent words are joined and empty segments dropped, so two utterances that
/// say the same are equal.
public struct Utterance: Equatable, Sendable, ExpressibleByStringInterpolation {
    public private(set) var segments: [Announcement.Segment] = []

    public init(_ segments: [Announcement.Segment]) {
        for segment in segments { append(segment) }
    }

    /// Prose.
    public init(_ words: String) {
        append(.words(words))
    }

    public init(stringLiteral words: String) {
        self.init(words)
    }

    public init(stringInterpolation: StringInterpolation) {
        self = stringInterpolation.utterance
    }

    /// Characters heard one by one, `groups` apart; each element is one character as written.
    public static func characters(_ groups: [[String]]) -> Utterance {
        Utterance([.characters(groups)])
    }

    /// As shown and logged.
    public var text: String { segments.map(\.text).joined() }

    public var isEmpty: Bool { segments.isEmpty }

    /// As the text backend writes it: `text` cut at each line break, an empty line for a blank one.
    public var lines: [String] {
        var lines = [""]
        for segment in segments {
            if case .lineBreak(_, let blankLine) = segment {
                if blankLine { lines.append("") }
                lines.append("")
            } else {
                lines[lines.count - 1] += segment.text
            }
        }
        return lines
    }

    /// A break between two lines or parts (`Announcement.Segment.lineBreak`), `spoken` in one flow.
    public static func lineBreak(spoken: String = " ", blankLine: Bool = false) -> Utterance {
        var utterance = Utterance([])
        utterance.segments.append(.lineBreak(spoken: spoken, blankLine: blankLine))
        return utterance
    }

    /// Every string in it passed through `transform` (a scrubber), segments kept.
    public func mapStrings(_ transform: (String) -> String) -> Utterance {
        Utterance(
            segments.map {
                switch $0 {
                case .words(let words): .words(transform(words))
                case .characters(let groups): .characters(groups.map { $0.map(transform) })
                case .lineBreak(let spoken, let blankLine): .lineBreak(spoken: transform(spoken), blankLine: blankLine)
                }
            })
    }

    public mutating func append(_ segment: Announcement.Segment) {
        switch segment {
        case .words(let words):
            guard !words.isEmpty else { return }
            if case .words(let previous) = segments.last {
                segments[segments.count - 1] = .words(previous + words)
            } else {
                segments.append(segment)
            }
        case .characters(let groups):
            let groups = groups.filter { !$0.isEmpty }
            if !groups.isEmpty { segments.append(.characters(groups)) }
        case .lineBreak:
            segments.append(segment)
        }
    }

    public static func + (lhs: Utterance, rhs: Utterance) -> Utterance {
        var result = lhs
        for segment in rhs.segments { result.append(segment) }
        return result
    }

    public static func + (lhs: Utterance, rhs: String) -> Utterance {
        lhs + Utterance(rhs)
    }

    public static func + (lhs: String, rhs: Utterance) -> Utterance {
        Utterance(lhs) + rhs
    }

    public static func += (lhs: inout Utterance, rhs: Utterance) {
        lhs = lhs + rhs
    }

    public static func += (lhs: inout Utterance, rhs: String) {
        lhs.append(.words(rhs))
    }

    /// Literal text is prose; an interpolated `Utterance` keeps its segments.
    public struct StringInterpolation: StringInterpolationProtocol {
        public var utterance = Utterance([])

        public init(literalCapacity: Int, interpolationCount: Int) {}

        public mutating func appendLiteral(_ literal: String) {
            utterance += literal
        }

        public mutating func appendInterpolation(_ utterance: Utterance) {
            self.utterance += utterance
        }

        public mutating func appendInterpolation(_ words: String) {
            utterance += words
        }
    }
}

extension Array where Element == Utterance {
    /// The utterances with `separator` (prose) between them.
    public func joined(separator: String) -> Utterance {
        var result = Utterance([])
        for (index, utterance) in enumerated() {
            if index > 0 { result += separator }
            result += utterance
        }
        return result
    }
}
