import OTCPromptCore
import TOMLKit

extension Preferences {
    /// Reads a configuration file's text. Never fails: a file that is not valid TOML gives empty preferences and
    /// one problem at the line TOMLKit names; an unknown key or a bad value gives one problem each, and the other
    /// settings still apply.
    /// - Parameter source: the file as the user knows it, quoted in each problem.
    public static func parse(_ text: String, source: String) -> (Preferences, [PreferenceProblem]) {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            let reason = printable(error.description)
            let problem = PreferenceProblem(
                source: source, line: error.source.begin.line > 0 ? error.source.begin.line : nil,
                message: "not valid TOML (\(reason)); the whole file is ignored")
            return (Preferences(), [problem])
        } catch {
            return (Preferences(), [PreferenceProblem(source: source, line: nil, message: "not valid TOML; ignored")])
        }

        var preferences = Preferences()
        var problems: [PreferenceProblem] = []
        let lines = KeyLines(text)
        for (key, value) in table {
            if let message = preferences.apply(key: key, value: value) {
                problems.append(
                    PreferenceProblem(
                        source: source, line: lines.line(of: key, isTable: value.table != nil), message: message))
            }
        }
        problems.sort { ($0.line ?? Int.max, $0.message) < ($1.line ?? Int.max, $1.message) }
        return (preferences, problems)
    }

    /// Sets the value `key` names, or says in one phrase why it cannot.
    private mutating func apply(key: String, value: TOMLValueConvertible) -> String? {
        switch key {
        case "lang":
            guard let language = value.string.flatMap(Preferences.language(named:)) else {
                return "lang must be \"en\" or \"pt\"; ignored"
            }
            self.language = language
        case "rate":
            guard let number = Preferences.number(value, in: Preferences.rateRange) else {
                return Preferences.numberProblem("rate", value, Preferences.rateRange)
            }
            rate = number
        case "volume":
            guard let number = Preferences.number(value, in: Preferences.volumeRange) else {
                return Preferences.numberProblem("volume", value, Preferences.volumeRange)
            }
            volume = number
        case "pitch":
            guard let number = Preferences.number(value, in: Preferences.pitchRange) else {
                return Preferences.numberProblem("pitch", value, Preferences.pitchRange)
            }
            pitch = number
        case "voice":
            guard let name = value.string, Preferences.isVoiceName(name) else {
                return "voice must be a voice name in quotes, e.g. voice = \"en-us\"; ignored"
            }
            voice = name
        case "verbosity":
            guard let level = value.string.flatMap({ Verbosity(rawValue: $0.lowercased()) }) else {
                return "verbosity must be \"terse\", \"normal\" or \"verbose\"; ignored"
            }
            verbosity = level
        case "speech":
            guard let mode = value.string?.lowercased(), Preferences.speechModes.contains(mode) else {
                return "speech must be \"espeak\", \"text\" or \"none\"; ignored"
            }
            speech = mode
        case "style":
            guard let name = value.string?.lowercased(), Preferences.styles.contains(name) else {
                return "style must be \"line\" or \"boxes\"; ignored"
            }
            style = name
        default:
            let known = Preferences.knownKeys.joined(separator: ", ")
            return "unknown setting \"\(printable(key))\" (known: \(known)); ignored"
        }
        return nil
    }

    /// "pt", "PT", "pt-BR" and "pt_BR" all name Portuguese, as a locale name would.
    static func language(named name: String) -> Language? {
        let base = name.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init)
        return base.flatMap(Language.init(rawValue:))
    }

    private static func number(_ value: TOMLValueConvertible, in range: ClosedRange<Int>) -> Int? {
        guard let number = value.int, range.contains(number) else { return nil }
        return number
    }

    /// A quoted number gets its own hint: the fix is to drop the quotes, not to change the number.
    private static func numberProblem(_ key: String, _ value: TOMLValueConvertible, _ range: ClosedRange<Int>)
        -> String
    {
        if let text = value.string, let number = Int(text), range.contains(number) {
            return "\(key) must be a number without quotes, e.g. \(key) = \(number); ignored"
        }
        return "\(key) must be a number from \(range.lowerBound) to \(range.upperBound); ignored"
    }

    /// espeak-ng voice names are short, printable and without spaces ("en-us", "pt-br", "mb-en1", "en+f3").
    private static func isVoiceName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64
            && name.unicodeScalars.allSatisfy {
                $0.value > 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value)
            }
    }
}

/// Text from the file made safe to print on one line of a terminal (no control characters, bounded).
func printable(_ text: String, limit: Int = 120) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
        let isControl = scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
        result.unicodeScalars.append(isControl ? " " : scalar)
    }
    return result.count > limit ? String(result.prefix(limit)) + "…" : result
}

/// Finds the line a top-level key was written on, because TOMLKit reports positions only for parse errors.
///
/// This only locates lines in a file TOMLKit has already accepted; it decides nothing about what the file means.
struct KeyLines {
    private let lines: [Substring]

    init(_ text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// 1-based line of `key = …` before the first table header, or of `[key]` / `[key.…]` for a table.
    func line(of key: String, isTable: Bool) -> Int? {
        var inTopLevel = true
        for (index, raw) in lines.enumerated() {
            let line = raw.drop(while: { $0 == " " || $0 == "\t" })
            if line.hasPrefix("[") {
                inTopLevel = false
                if isTable, let rest = Self.afterKey(key, in: line.drop(while: { $0 == "[" || $0 == " " })),
                    rest.first == "]" || rest.first == "."
                {
                    return index + 1
                }
                continue
            }
            guard inTopLevel, let rest = Self.afterKey(key, in: line) else { continue }
            if rest.first == "=" || rest.first == "." { return index + 1 }
        }
        return nil
    }

    /// What follows `key` (bare, "double-quoted" or 'single-quoted') and any blanks, or nil if the line
    /// does not start with it.
    private static func afterKey(_ key: String, in line: Substring) -> Substring? {
        for spelling in [key, "\"\(key)\"", "'\(key)'"] where line.hasPrefix(spelling) {
            let rest = line.dropFirst(spelling.count)
            if spelling == key, let next = rest.first, next.isLetter || next.isNumber || next == "_" || next == "-" {
                continue
            }
            return rest.drop(while: { $0 == " " || $0 == "\t" })
        }
        return nil
    }
}
