/// How pinentry texts are said: each line a sentence, key IDs and fingerprints spelled in groups.
enum PinentrySpeech {
    /// "created 2026-11-23" → "created 2026-11-23."; "key ID …," → "key ID ….": a line that already
    /// ends a sentence is kept.
    static func sentence(_ line: String) -> String {
        guard let last = line.last else { return line }
        if ",;".contains(last) { return line.dropLast() + "." }
        return ".?!:".contains(last) ? line : line + "."
    }

    /// Long hexadecimal words (a key ID "0x1234ABCD5678EF90", a 40-digit fingerprint) and runs of
    /// three or more four-digit hex groups ("8C3E 1A2B 9F00 …") spelled character by character,
    /// grouped as `CodeGrouping` groups codes, so the ear can follow and compare them.
    static func spellingCodes(_ line: String) -> String {
        let words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let quads = words.map { isHexGroup(core($0).body) }
        var spoken: [String] = []
        var index = 0
        while index < words.count {
            var end = index
            while end < words.count, quads[end] { end += 1 }
            if end - index >= 3 {
                let groups = words[index..<end].map { core($0) }
                spoken.append(
                    groups.map { CodeGrouping.spell(Array($0.body), length: 4) }.joined(separator: ", ")
                        + (groups.last?.trailing ?? ""))
                index = end
                continue
            }
            let (prefix, body, trailing) = core(words[index])
            if body.count >= 8, body.allSatisfy(\.isHexDigit), body.contains(where: \.isNumber) {
                spoken.append(prefix + CodeGrouping.spell(Array(body), length: body.count) + trailing)
            } else {
                spoken.append(words[index])
            }
            index += 1
        }
        return spoken.joined(separator: " ")
    }

    private static func isHexGroup(_ body: String) -> Bool {
        body.count == 4 && body.allSatisfy(\.isHexDigit)
    }

    /// A word without its "0x" and the punctuation around it: "(0x12AB…)," → ("(", "12AB…", "),").
    private static func core(_ word: String) -> (prefix: String, body: String, trailing: String) {
        var body = Substring(word)
        var prefix = ""
        var trailing = ""
        while let first = body.first, "(\"'<[".contains(first) {
            prefix.append(first)
            body.removeFirst()
        }
        while let last = body.last, ",.;:?!)\"'>]".contains(last) {
            trailing.insert(last, at: trailing.startIndex)
            body.removeLast()
        }
        if body.hasPrefix("0x") || body.hasPrefix("0X") { body.removeFirst(2) }
        return (prefix, String(body), trailing)
    }
}
