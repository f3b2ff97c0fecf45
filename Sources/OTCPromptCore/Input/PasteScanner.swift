/// What a finished paste contributes to the field.
public enum PasteResult: Equatable, Sendable {
    /// Once normalised, the whole paste was allowed characters: these, at most `length` of them.
    case characters([Character])
    /// The paste was a message with exactly one standalone run of `length` allowed characters
    /// (an SMS such as "Your code is G-123456."): that run.
    case extracted([Character])
    /// Neither: the field stays unchanged.
    case rejected
}

/// Streams a bracketed paste through in bounded memory and linear time, and decides what it
/// contributes to the field once it ends.
///
/// Normalisation drops spaces, dashes, dots, tabs and line breaks and folds full-width forms.
/// If everything left is allowed, the paste is the code (`.characters`), unless it is longer than
/// the field and holds code-sized candidates: then it is a message like any other ("G-123456" in
/// an alnum field gives "123456", not "G12345"; "Your code is AB12CD" gives "AB12CD"). Otherwise the paste is read as a message and its one
/// candidate is `.extracted`: a run of exactly `length` allowed characters, or consecutive runs
/// joined by single spaces, dashes or dots ("123 456", "123-456") totalling `length`. Candidates
/// with a digit win over letter-only ones (alnum words); equal candidates count once (the
/// "@example.com #123456" line repeats the code); two different ones reject the paste.
///
/// Memory: at most the first `length` characters, the current run, the recent joined runs and
/// two candidates, whatever the paste's size (`retainedCharacterCount`).
public struct PasteScanner: Sendable {
    public let charset: CodeCharset
    public let length: Int

    /// The first `length` allowed characters (each one scalar: scanning is by scalar).
    private var leadingCharacters: [Unicode.Scalar] = []
    /// Allowed characters seen, counted up to `length + 1`.
    private var allowedCount = 0
    /// False once a character that is neither allowed nor dropped by normalisation was seen.
    private var everythingAllowed = true
    private var candidates = PasteCandidates()
    /// Precomputed from `charset` for the per-scalar fast path.
    private let takesASCIIFastPath: Bool
    private let allowsLetters: Bool

    public init(charset: CodeCharset, length: Int) {
        self.charset = charset
        self.length = max(0, length)
        self.candidates = PasteCandidates(length: self.length)
        self.takesASCIIFastPath = charset != .any
        self.allowsLetters = charset == .alnum
    }

    /// Decides what `text`, pasted whole, contributes to a field of this charset and length.
    public static func scan(_ text: String, charset: CodeCharset, length: Int) -> PasteResult {
        var scanner = PasteScanner(charset: charset, length: length)
        scanner.scan(text)
        return scanner.result
    }

    /// Scans the next piece of the paste.
    public mutating func scan(_ text: String) {
        for unicodeScalar in text.unicodeScalars {
            let value = unicodeScalar.value
            if !takesASCIIFastPath {
                scanThroughCharset(unicodeScalar)
            } else if value < 0x80 {
                scanASCII(UInt8(value))
            } else if (0xFF01...0xFF5E).contains(value) {
                scanASCII(UInt8(value - 0xFF01 + 0x21))  // full-width ASCII, as CodeCharset.foldFullWidth
            } else {
                scanSeparatorOrReject(unicodeScalar)  // nothing else non-ASCII is a digit or A–Z
            }
        }
    }

    /// The digits and alnum charsets without building a `Character`: the same verdicts as
    /// `charset.accept`, and fast enough for a paste of many megabytes.
    private mutating func scanASCII(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            accept(Unicode.Scalar(byte))
        case UInt8(ascii: "A")...UInt8(ascii: "Z") where allowsLetters:
            accept(Unicode.Scalar(byte))
        case UInt8(ascii: "a")...UInt8(ascii: "z") where allowsLetters:
            accept(Unicode.Scalar(byte - 0x20))
        case 0x09, 0x0A, 0x0B, 0x0C, 0x0D:
            candidates.separator(joins: false)
        case UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "."):
            candidates.separator(joins: true)
        default:
            reject()
        }
    }

    /// A scalar that is not a digit or letter of the charset: dropped if a separator, else not allowed.
    private mutating func scanSeparatorOrReject(_ scalar: Unicode.Scalar) {
        switch PasteSeparator(scalar) {
        case .joining: candidates.separator(joins: true)
        case .breaking: candidates.separator(joins: false)
        case nil: reject()
        }
    }

    /// The general path, for the `any` charset: normalise, then ask the charset.
    private mutating func scanThroughCharset(_ scalar: Unicode.Scalar) {
        let folded = CodeCharset.foldFullWidth(Character(scalar))
        let foldedScalar = folded.unicodeScalars.first ?? scalar
        if PasteSeparator(foldedScalar) == nil, let accepted = charset.accept(folded)?.unicodeScalars,
            accepted.count == 1, let only = accepted.first
        {
            accept(only)
        } else {
            scanSeparatorOrReject(foldedScalar)
        }
    }

    private mutating func accept(_ character: Unicode.Scalar) {
        if allowedCount < length { leadingCharacters.append(character) }
        allowedCount = min(allowedCount + 1, length + 1)
        candidates.allowed(character)
    }

    private mutating func reject() {
        everythingAllowed = false
        candidates.separator(joins: false)
    }

    /// The verdict on everything scanned so far.
    public var result: PasteResult {
        var finished = candidates
        finished.separator(joins: false)
        let candidate = finished.onlyCandidate
        if everythingAllowed, allowedCount > 0 {
            guard allowedCount > length, finished.hasCandidates else {
                return .characters(leadingCharacters.map(Character.init))
            }
        }
        return candidate.map { .extracted($0.map(Character.init)) } ?? .rejected
    }

    /// True when the paste held more allowed characters than the field: `.characters` was cut short.
    public var overflowed: Bool { allowedCount > length }

    /// How many characters the scanner holds right now; never more than `5 * length`.
    public var retainedCharacterCount: Int {
        leadingCharacters.count + candidates.retainedCharacterCount
    }
}

/// How normalisation treats a character that is not part of a code.
enum PasteSeparator {
    /// A space, dash or dot: dropped, and one of them may join two groups of a code ("123 456").
    case joining
    /// A tab or line break: dropped, but it ends a group.
    case breaking

    init?(_ scalar: Unicode.Scalar) {
        switch scalar.value {
        case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029:
            self = .breaking
        case 0x20, 0x2D, 0x2E, 0xB7, 0x2024, 0x2212, 0x30FB, 0xFF0E, 0xFF65:
            self = .joining
        default:
            switch scalar.properties.generalCategory {
            case .spaceSeparator, .dashPunctuation: self = .joining  // NBSP, U+3000, U+2010–U+2015…
            default: return nil
            }
        }
    }
}

/// Finds the code-sized candidates in a stream of allowed characters and separators, keeping
/// only what a candidate of `length` characters can still need.
struct PasteCandidates: Sendable {
    let length: Int

    /// The run of allowed characters being read, up to `length + 1` of them.
    private var run: [Unicode.Scalar] = []
    private var runCount = 0
    /// The runs just before `run`, each joined to the next by one separator, totalling less than
    /// `length` (a longer chain can no longer be part of a candidate).
    private var joinedRuns: [[Unicode.Scalar]] = []
    private var joinedCount = 0
    /// True right after a run ended on a joining separator.
    private var awaitsJoinedRun = false

    private var withDigit = CandidateSlot()
    private var lettersOnly = CandidateSlot()

    init(length: Int = 0) {
        self.length = length
    }

    mutating func allowed(_ character: Unicode.Scalar) {
        if runCount == 0, !awaitsJoinedRun { clearJoinedRuns() }
        awaitsJoinedRun = false
        if runCount <= length { run.append(character) }
        runCount += 1
    }

    /// Anything that is not an allowed character; `joins` when it is one space, dash or dot.
    mutating func separator(joins: Bool) {
        if runCount > 0 {
            endRun()
            awaitsJoinedRun = joins
        } else {
            awaitsJoinedRun = false  // a second separator in a row, or a separator at the start
            clearJoinedRuns()
        }
    }

    /// The one candidate, preferring those with a digit; nil when there is none or several.
    var onlyCandidate: [Unicode.Scalar]? {
        withDigit.isPresent ? withDigit.only : lettersOnly.only
    }

    var hasCandidates: Bool { withDigit.isPresent || lettersOnly.isPresent }

    var retainedCharacterCount: Int {
        run.count + joinedCount + withDigit.retainedCharacterCount + lettersOnly.retainedCharacterCount
    }

    private mutating func endRun() {
        defer {
            run.removeAll(keepingCapacity: true)
            runCount = 0
        }
        guard runCount < length else {
            if runCount == length { record(run) }
            clearJoinedRuns()
            return
        }
        // The chain ending with this run and totalling `length`, if any (totals only grow).
        var total = runCount
        for start in joinedRuns.indices.reversed() {
            total += joinedRuns[start].count
            if total == length {
                record(joinedRuns[start...].flatMap { $0 } + run)
                break
            }
            if total > length { break }
        }
        joinedRuns.append(run)
        joinedCount += runCount
        while joinedCount >= length, !joinedRuns.isEmpty {
            joinedCount -= joinedRuns.removeFirst().count
        }
    }

    private mutating func clearJoinedRuns() {
        guard !joinedRuns.isEmpty else { return }  // the common case in prose: keep it cheap
        joinedRuns.removeAll(keepingCapacity: true)
        joinedCount = 0
    }

    private mutating func record(_ candidate: [Unicode.Scalar]) {
        if candidate.contains(where: { Character($0).isNumber }) {
            withDigit.record(candidate)
        } else {
            lettersOnly.record(candidate)
        }
    }
}

/// The first candidate of one kind and whether a different one followed.
struct CandidateSlot: Sendable {
    private var first: [Unicode.Scalar]?
    private var isAmbiguous = false

    var isPresent: Bool { first != nil }
    var only: [Unicode.Scalar]? { isAmbiguous ? nil : first }
    var retainedCharacterCount: Int { first?.count ?? 0 }

    mutating func record(_ candidate: [Unicode.Scalar]) {
        if let first {
            if first != candidate { isAmbiguous = true }
        } else {
            first = candidate
        }
    }
}
