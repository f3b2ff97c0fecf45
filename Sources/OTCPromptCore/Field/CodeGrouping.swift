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
