/// Turns an announcement into the SSML espeak-ng is given, so every character of a code is heard
/// by its name.
///
/// espeak-ng reads a lone capital "A" in "G 1 A 2" as the article and "I" as the pronoun.
/// `.characters` segments say which characters are spelled: in each group, runs of single ASCII
/// letters and digits that contain a letter are wrapped in `<say-as interpret-as="characters">`
/// (one group at a time, never across a comma: inside say-as espeak-ng 1.51 speaks the comma as
/// the word "comma"). Letters are given in lower case, as Portuguese otherwise adds "maiúsculo".
/// Runs of digits stay plain text, spaced, which espeak-ng reads digit by digit in every
/// language; a symbol's name ("dollar") is read as a word.
///
/// `.words` segments are prose, but may hold a caller's text: the backends give an announcement's said form
/// (`SpokenForm`: identifiers already as characters), and runs of spaced single characters in prose are spelled by
/// the same rule, except a lone lower-case letter or a capital opening a sentence ("A code was sent"), which are
/// words.
public enum SpokenText {
    /// `utterance` as an SSML document for `espeak_Synth` with `espeakSSML`.
    public static func ssml(_ utterance: Utterance) -> String {
        var output = "<speak>"
        for segment in utterance.segments {
            switch segment {
            case .words(let words): output += prose(words)
            case .characters(let groups): output += spelled(groups)
            case .lineBreak(let spoken, _): output += escaped(spoken)
            }
        }
        return output + "</speak>"
    }

    /// `text`, all of it prose, as an SSML document.
    public static func ssml(_ text: String) -> String {
        ssml(Utterance(text))
    }

    /// Each group's characters by name: letters (with the digits among them) in say-as, digits and
    /// symbol names as plain text.
    static func spelled(_ groups: [[String]]) -> String {
        groups.map { group in
            var runs: [[String]] = []
            var inRun = false
            for item in group {
                let single = isSingleCharacter(item)
                if single && inRun {
                    runs[runs.count - 1].append(item)
                } else {
                    runs.append([item])
                }
                inRun = single
            }
            return runs.map { run in
                guard run.contains(where: { $0.first?.isLetter == true }), isSingleCharacter(run[0]) else {
                    return escaped(run.joined(separator: " "))
                }
                return sayAs(run.joined())
            }.joined(separator: " ")
        }.joined(separator: ", ")
    }

    /// ASCII letters and digits said by name, in lower case (Portuguese adds "maiúsculo" to a capital).
    private static func sayAs(_ characters: String) -> String {
        "<say-as interpret-as=\"characters\">" + characters.lowercased() + "</say-as>"
    }

    /// One ASCII letter or digit.
    private static func isSingleCharacter(_ item: String) -> Bool {
        item.count == 1 && item.first!.isASCII && (item.first!.isLetter || item.first!.isNumber)
    }

    /// Prose: runs of spaced single characters spelled where they cannot be words.
    static func prose(_ text: String) -> String {
        let tokens = tokenize(text)
        var output = ""
        var index = 0
        while index < tokens.count {
            let run = singleCharacterRun(in: tokens, from: index)
            if run.count > 0, shouldSpell(run, in: tokens, from: index, text: text) {
                let characters = stride(from: index, to: index + run.count * 2 - 1, by: 2).map { tokens[$0].text }
                output += sayAs(characters.joined())
                index += run.count * 2 - 1
            } else {
                output += escaped(tokens[index].text)
                index += 1
            }
        }
        return output
    }

    struct Token {
        var text: String
        var isWord: Bool
    }

    /// Alternating words (letters and digits) and separators (everything else).
    static func tokenize(_ text: String) -> [Token] {
        var tokens: [Token] = []
        for character in text {
            let isWord = character.isLetter || character.isNumber
            if let last = tokens.last, last.isWord == isWord {
                tokens[tokens.count - 1].text.append(character)
            } else {
                tokens.append(Token(text: String(character), isWord: isWord))
            }
        }
        return tokens
    }

    /// The single-character words starting at `start`, separated by single spaces.
    private static func singleCharacterRun(in tokens: [Token], from start: Int) -> [Character] {
        var run: [Character] = []
        var index = start
        while index < tokens.count, isStandaloneCharacter(tokens, index) {
            run.append(Character(tokens[index].text))
            guard index + 2 < tokens.count, tokens[index + 1].text == " " else { break }
            index += 2
        }
        return run
    }

    /// One ASCII letter or digit that is not glued to a word by a hyphen or apostrophe ("6-digit").
    private static func isStandaloneCharacter(_ tokens: [Token], _ index: Int) -> Bool {
        let token = tokens[index]
        guard token.isWord, token.text.count == 1, token.text.first!.isASCII else { return false }
        let glue: Set<Character> = ["-", "'", "’"]
        if index > 0, let last = tokens[index - 1].text.last, glue.contains(last) { return false }
        if index + 1 < tokens.count, let first = tokens[index + 1].text.first, glue.contains(first) { return false }
        return true
    }

    private static func shouldSpell(_ run: [Character], in tokens: [Token], from start: Int, text: String) -> Bool {
        guard run.contains(where: \.isLetter) else { return false }
        if run.count > 1 { return true }
        let letter = run[0]
        if letter.isLowercase {
            return text.trimmingSpaces == String(letter)
        }
        // A capital opening a sentence before more words is prose: "A code was sent", "O código".
        let opensSentence = start == 0 || tokens[start - 1].text.trimmingSpaces.last.map { ".!?:".contains($0) } == true
        let followedByWords =
            start + 2 < tokens.count && tokens[start + 1].text == " " && !isStandaloneCharacter(tokens, start + 2)
        return !(opensSentence && followedByWords)
    }

    private static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}

extension String {
    fileprivate var trimmingSpaces: Substring {
        let characters = self[...]
        let start = characters.firstIndex(where: { $0 != " " }) ?? characters.endIndex
        let end = characters.lastIndex(where: { $0 != " " }).map { characters.index(after: $0) } ?? start
        return characters[start..<max(start, end)]
    }
}
