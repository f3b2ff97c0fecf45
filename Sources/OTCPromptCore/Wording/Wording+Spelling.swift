/// How letters are said (`--spell`): by their names, or by the words of the spelling alphabet.
public enum Spelling: String, Sendable, CaseIterable {
    /// Letters by their names; one that could be taken for a digit is said "letter O".
    case plain
    /// Letters by the ICAO spelling alphabet (Alfa, Bravo…), as the catalog writes it; digits stay digits.
    case phonetic
}

/// How the characters of a code or secret are said, so that none can be heard as another.
///
/// Digits are always just digits: a digits-only code is spelled exactly as before, the fast path. Where a
/// field admits letters too, a letter a listener could take for a digit (O, I, L, S, B, Z, G: "oh" is said for
/// zero, and they are the letters that look like 0, 1, 5, 8, 2, 6 on the page the code came from) is said
/// "letter O"; other letters keep their short names. In free text, where case matters, an upper-case letter
/// is "capital A" (which already says it is a letter); a lower-case one is its name. Under `--spell phonetic`
/// every letter is its word ("Oscar", "capital Alfa"), which no digit sounds like.
extension Wording {
    /// Letters that look like a digit or whose name is said for one ("oh" for zero).
    static let digitLookalikes: Set<Character> = ["O", "I", "L", "S", "B", "Z", "G"]

    /// The field's characters, grouped as the whole code is.
    func spell(_ field: CodeField, _ style: Style) -> Utterance {
        spell(field.characters, field: field, style: style)
    }

    /// `characters` spelled one by one, grouped as in the full code (`CodeGrouping`; free text by what
    /// is there), the groups apart by the language's separator.
    func spell(_ characters: [Character], field: CodeField, style: Style, offset: Int = 0) -> Utterance {
        let groups: [[Character]]
        if field.charset == .any {
            var start = 0
            groups = CodeGrouping.groupSizes(length: characters.count).map { size in
                defer { start += size }
                return Array(characters[start..<start + size])
            }
        } else {
            groups = CodeGrouping.characterGroups(characters, length: spokenLength(field), offset: offset)
        }
        return groups.map { group(of: $0, field, style) }.joined(separator: phrases.groupSeparator)
    }

    /// One character as it is said on its own.
    func say(_ character: Character, _ field: CodeField, _ style: Style) -> Utterance {
        group(of: [character], field, style)
    }

    /// One group: characters said by their written form stay one run of spelled characters, as before;
    /// a named one ("letter O", "Alfa") stands between them.
    private func group(of characters: [Character], _ field: CodeField, _ style: Style) -> Utterance {
        var parts: [Utterance] = []
        var run: [String] = []
        for character in characters {
            switch spoken(character, field, style) {
            case .written(let written):
                run.append(written)
            case .named(let name):
                if !run.isEmpty { parts.append(.characters([run])) }
                run = []
                parts.append(name)
            }
        }
        if !run.isEmpty { parts.append(.characters([run])) }
        return parts.joined(separator: " ")
    }

    private enum Spoken {
        /// Spelled as written: a digit, a letter's name, in free text a symbol's name ("dollar").
        case written(String)
        /// Words around the letter: "letter O", "capital A", "Alfa".
        case named(Utterance)
    }

    private func spoken(_ character: Character, _ field: CodeField, _ style: Style) -> Spoken {
        if field.charset == .digits { return .written(CodeGrouping.spoken(character)) }
        if field.charset == .any, let symbol = phrases.symbolName(character) { return .written(symbol) }
        guard character.isLetter else { return .written(String(character)) }
        // An alnum code is case-insensitive (its letters are stored upper-case): only free text says the case.
        let capital = field.charset == .any && character.isUppercase
        let upper = Character(character.uppercased())
        if style.spelling == .phonetic, let word = phoneticWord(upper) {
            return .named(capital ? phrases.capital(Utterance(word)) : Utterance(word))
        }
        let written = field.charset == .any ? String(character) : String(upper)
        if capital { return .named(phrases.capital(.characters([[written]]))) }
        if Self.digitLookalikes.contains(upper) { return .named(phrases.letter(.characters([[written]]))) }
        return .written(written)
    }

    /// The spelling alphabet's word for an ASCII letter; nil for any other (é is said by its name).
    private func phoneticWord(_ letter: Character) -> String? {
        guard let ascii = letter.asciiValue, (65...90).contains(ascii) else { return nil }
        let index = Int(ascii - 65)
        return phrases.phonetic.indices.contains(index) ? phrases.phonetic[index] : nil
    }
}
