/// How a code is cut into groups for speaking: 3-3 for 6 characters, 4-4 for 8, groups of 3
/// otherwise. A lone character never ends a code: it joins the group before it, so 4 is one
/// group of 4 (as a PIN is said), 7 is 3-4 and 10 is 3-3-4.
public enum CodeGrouping {
    /// The group sizes for a code of `length` characters, in order; they add up to `length`.
    public static func groupSizes(length: Int) -> [Int] {
        guard length > 0 else { return [] }
        if length == 8 { return [4, 4] }
        var sizes = Array(repeating: 3, count: length / 3)
        switch length % 3 {
        case 1 where sizes.isEmpty: sizes = [1]
        case 1: sizes[sizes.count - 1] += 1
        case 2: sizes.append(2)
        default: break
        }
        return sizes
    }

    /// The characters as spoken, in groups: each element is one character as written (`spoken`).
    /// The groups are those of the full code, so a partial code breaks where the full one would
    /// ("9 8 5, 3").
    ///
    /// - Parameters:
    ///   - characters: the characters to spell.
    ///   - length: the full code's length, which decides the groups; free-text secrets pass
    ///     their own count.
    ///   - offset: the position of the first character in the code (a paste appended after
    ///     characters already typed), so the groups stay where they are in the full code.
    public static func groups(_ characters: [Character], length: Int, offset: Int = 0) -> [[String]] {
        characterGroups(characters, length: length, offset: offset).map { $0.map(spoken) }
    }

    /// The characters themselves in the same groups, for a wording that names some of them.
    public static func characterGroups(_ characters: [Character], length: Int, offset: Int = 0) -> [[Character]] {
        let boundaries = groupStarts(length: max(length, offset + characters.count))
        var groups: [[Character]] = []
        for (index, character) in characters.enumerated() {
            if index == 0 || boundaries.contains(offset + index) { groups.append([]) }
            groups[groups.count - 1].append(character)
        }
        return groups
    }

    /// One character as it is written in an announcement: letters upper-case (the speech engine
    /// then says the letter's name), everything else as it is.
    static func spoken(_ character: Character) -> String {
        character.isLetter ? character.uppercased() : String(character)
    }

    /// The positions at which a group begins, the first excepted.
    private static func groupStarts(length: Int) -> Set<Int> {
        var starts: Set<Int> = []
        var position = 0
        for size in groupSizes(length: length).dropLast() {
            position += size
            starts.insert(position)
        }
        return starts
    }
}

extension CodeGrouping {
    /// `text` with every long opaque word (a key fingerprint, a key ID, a hash) spelled in groups of four,
    /// so it can be compared by ear: "SHA256:3uW0xQk7J2r0…" → "SHA256: 3 u W 0, x Q k 7, J 2 r 0, …".
    ///
    /// A word is opaque when, after an optional "NAME:" prefix, it has at least 12 characters with both
    /// letters and digits, or at least 16 hex digits and colons ("MD5:ab:cd:…", "0x…"). Other words, and
    /// the text itself, stay as they are. Speech backends apply this; the screen and the log keep the word
    /// whole, which is what a braille display should show.
    public static func groupingOpaqueWords(_ text: String) -> String {
        var result = ""
        var word = ""
        for character in text {
            if character.isWhitespace {
                result += grouped(word) + String(character)
                word = ""
            } else {
                word.append(character)
            }
        }
        return result + grouped(word)
    }

    private static func grouped(_ word: String) -> String {
        var core = Substring(word)
        var trailing = ""
        while let last = core.last, ".,;)!?'\"".contains(last) {
            trailing = String(last) + trailing
            core.removeLast()
        }
        var prefix = ""
        if let colon = core.firstIndex(of: ":"), colon != core.startIndex,
            core[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" })
        {
            prefix = String(core[...colon]) + " "
            core = core[core.index(after: colon)...]
        }
        guard isOpaque(core) else { return word }
        let characters = Array(core.filter { $0 != ":" })
        var groups: [String] = []
        var start = 0
        while start < characters.count {
            groups.append(characters[start..<min(start + 4, characters.count)].map(String.init).joined(separator: " "))
            start += 4
        }
        return prefix + groups.joined(separator: ", ") + trailing
    }

    private static func isOpaque(_ word: Substring) -> Bool {
        let hasLetter = word.contains { $0.isASCII && $0.isLetter }
        let hasDigit = word.contains { $0.isASCII && $0.isNumber }
        let isHex = word.count >= 16 && word.allSatisfy { $0.isHexDigit || $0 == ":" }
        let isMixed =
            word.count >= 12 && hasLetter && hasDigit
            && word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+/=_-".contains($0)) }
        return isHex || isMixed
    }
}
