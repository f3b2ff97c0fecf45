/// Turns an announcement's words into the SSML espeak-ng is given, so every character of a code
/// is heard by its name.
///
/// espeak-ng reads a lone capital "A" in "G 1 A 2" as the article and "I" as the pronoun. Runs
/// of spaced single characters that contain a letter are wrapped, one group at a time, in
/// `<say-as interpret-as="characters">` (within a group, never across a comma: inside say-as
/// espeak-ng 1.51 speaks the comma as the word "comma"). Letters are given in lower case, as
/// Portuguese otherwise adds "maiúsculo". Runs of digits stay plain text: the wording already
/// spaces them, which espeak-ng reads digit by digit in every language.
public enum SpokenText {
    /// `text` as an SSML document for `espeak_Synth` with `espeakSSML`.
    public static func ssml(_ text: String) -> String {
        let tokens = tokenize(CodeGrouping.groupingOpaqueWords(text))
        var output = "<speak>"
        var index = 0
        while index < tokens.count {
            let run = singleCharacterRun(in: tokens, from: index)
            if run.count > 0, shouldSpell(run, in: tokens, from: index, text: text) {
                let characters = stride(from: index, to: index + run.count * 2 - 1, by: 2).map { tokens[$0].text }
                output += "<say-as interpret-as=\"characters\">" + characters.joined().lowercased() + "</say-as>"
                index += run.count * 2 - 1
            } else {
                output += escaped(tokens[index].text)
                index += 1
            }
        }
        return output + "</speak>"
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
