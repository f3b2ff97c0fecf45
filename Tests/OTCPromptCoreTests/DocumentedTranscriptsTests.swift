import Foundation
import OTCPromptFrontEnds
import Testing

@testable import OTCPromptCore

/// Docs say what the program says: every transcript in the README and docs/ marked
/// `<!-- transcript: … -->` is replayed through the real session, and each announcement must be the
/// documented line, word for word.
///
/// Marker attributes: `keys="…"` (characters as typed; ⌫ Backspace, ⏎ Enter, ⎋ Esc, ⌃R Ctrl-R),
/// `askpass="PROMPT"` (the field an askpass caller with that prompt gets), `label=`, `charset=`, `mask`,
/// `lang=` (a tag: `pt-BR`), `output="…"` (what is printed; the block's last line). In a block, lines starting with "$ "
/// are shell commands, and "…" stands for any number of announcements.
@Suite struct DocumentedTranscriptsTests {
    struct Transcript: CustomTestStringConvertible {
        var place: String
        var attributes: [String: String]
        var lines: [String]
        var testDescription: String { place }
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var transcripts: [Transcript] {
        var found: [Transcript] = []
        let files =
            ["README.md"]
            + ((try? FileManager.default.contentsOfDirectory(atPath: root.path + "/docs")) ?? [])
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        for file in files.sorted() {
            guard let text = try? String(contentsOfFile: root.path + "/" + file, encoding: .utf8) else { continue }
            let lines = text.components(separatedBy: "\n")
            for (index, line) in lines.enumerated() where line.hasPrefix("<!-- transcript:") {
                var block: [String] = []
                var next = index + 2  // past the opening fence
                while next < lines.count, !lines[next].hasPrefix("```") {
                    block.append(lines[next])
                    next += 1
                }
                found.append(
                    Transcript(place: "\(file):\(index + 1)", attributes: attributes(of: line), lines: block))
            }
        }
        return found
    }

    /// `name="value"` pairs and bare names from a marker line.
    static func attributes(of line: String) -> [String: String] {
        var attributes: [String: String] = [:]
        var rest = Substring(line.dropFirst("<!-- transcript:".count))
        while let start = rest.firstIndex(where: { $0.isLetter }) {
            rest = rest[start...]
            let name = String(rest.prefix { $0.isLetter })
            rest = rest.dropFirst(name.count)
            if rest.hasPrefix("=\""), let end = rest.dropFirst(2).firstIndex(of: "\"") {
                attributes[name] = String(rest[rest.index(rest.startIndex, offsetBy: 2)..<end])
                rest = rest[rest.index(after: end)...]
            } else {
                attributes[name] = ""
            }
        }
        return attributes
    }

    static func keys(_ text: String) -> [Key] {
        var keys: [Key] = []
        var characters = Substring(text)
        while let character = characters.first {
            characters.removeFirst()
            switch character {
            case "⌫": keys.append(.backspace)
            case "⏎": keys.append(.submit)
            case "⎋": keys.append(.escape)
            case "⌃":
                characters.removeFirst()
                keys.append(.readBack)
            default: keys.append(.character(character))
            }
        }
        return keys
    }

    /// What the program says for the transcript's keys, and what it prints.
    static func replay(_ attributes: [String: String]) -> (said: [String], printed: String?) {
        let language = attributes["lang"].flatMap(Language.init(rawValue:)) ?? .en
        var configuration = PromptConfiguration(
            label: attributes["label"], charset: attributes["charset"] == "alnum" ? .alnum : .digits,
            mask: attributes["mask"] != nil, language: language)
        if attributes["charset"] == "any" {
            configuration = .freeText(label: attributes["label"], mask: true, language: language)
        }
        if let prompt = attributes["askpass"] {
            // The field the askpass front end makes of the caller's words, its label included.
            let asked = AskpassFrontEnd.request(
                prompt: prompt, configuration: configuration, environment: [:], askedAgain: false)
            if case .field(let field) = asked.ask { configuration = field }
        }
        var session = PromptSession(configuration: configuration)
        var said: [String] = []
        var printed: String?
        for effect in session.start() + keys(attributes["keys"] ?? "").flatMap({ session.handle($0) }) {
            switch effect {
            // As `--speech text` writes it: an opening's parts each on a line of its own.
            case .announce(let announcement): said += announcement.lines
            case .submit(let code): printed = code.text
            default: break
            }
        }
        return (said, printed)
    }

    @Test func theDocsHaveTranscriptsToCheck() {
        #expect(Self.transcripts.count >= 3)
    }

    @Test(arguments: transcripts)
    func eachDocumentedTranscriptIsWhatTheProgramSays(transcript: Transcript) {
        var expected = transcript.lines.filter { !$0.hasPrefix("$ ") }
        if let output = transcript.attributes["output"] {
            #expect(expected.last == output, "the block should end with what is printed")
            expected.removeLast()
        }
        let (said, printed) = Self.replay(transcript.attributes)
        if let output = transcript.attributes["output"] { #expect(printed == output) }
        var index = 0
        for (position, line) in expected.enumerated() {
            if line == "…" {
                guard position + 1 < expected.count else {
                    index = said.count
                    continue
                }
                while index < said.count, said[index] != expected[position + 1] { index += 1 }
                continue
            }
            #expect(
                index < said.count && said[index] == line,
                "\(transcript.place): said \(index < said.count ? said[index] : "nothing"), documented \(line)")
            index += 1
        }
        #expect(index == said.count, "\(transcript.place): undocumented announcements \(said.dropFirst(index))")
    }
}
