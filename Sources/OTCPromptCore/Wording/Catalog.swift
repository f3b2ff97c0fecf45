/// One language's messages, compiled from its gettext catalog (`po/*.po`) into
/// `Catalog+Generated.swift` by `scripts/catalogs.py`, so nothing is parsed at start-up.
///
/// Code names a message by its context (`msgctxt`), never by its words. A message the catalog
/// lacks, or left untranslated, is taken from English: a missing translation never breaks a prompt.
struct Catalog: Sendable {
    /// The plural form index for a number, from the catalog's `Plural-Forms` header.
    let pluralForm: @Sendable (Int) -> Int
    /// Message name → its forms: one, or one per plural form.
    let messages: [String: [String]]

    /// The message's text with its placeholders filled.
    func text(_ name: String, _ arguments: any CustomStringConvertible...) -> String {
        text(name, arguments: arguments)
    }

    func text(_ name: String, arguments: [any CustomStringConvertible]) -> String {
        Self.fill(form(name, count: nil), arguments)
    }

    /// The plural message's form for `count`, with its placeholders filled.
    func plural(_ name: String, count: Int, _ arguments: any CustomStringConvertible...) -> String {
        Self.fill(form(name, count: count), arguments)
    }

    /// The message as an utterance: words, with each placeholder replaced by its utterance (a
    /// character spelled as a segment of its own).
    func utterance(_ name: String, _ arguments: Utterance...) -> Utterance {
        var utterance = Utterance([])
        for piece in Self.pieces(form(name, count: nil)) {
            switch piece {
            case .words(let words): utterance += words
            case .argument(let index): if arguments.indices.contains(index) { utterance += arguments[index] }
            }
        }
        return utterance
    }

    /// The `|`-separated list a message holds (answer words, askpass keywords), lower case.
    func list(_ name: String) -> [String] {
        form(name, count: nil).split(separator: "|").map { String($0).lowercased() }.filter { !$0.isEmpty }
    }

    private func form(_ name: String, count: Int?) -> String {
        if let forms = messages[name], let form = pick(forms, count: count, pluralForm), !form.isEmpty { return form }
        let english = Catalog.en
        return english.messages[name].flatMap { pick($0, count: count, english.pluralForm) } ?? name
    }

    private func pick(_ forms: [String], count: Int?, _ plural: (Int) -> Int) -> String? {
        guard let count, forms.count > 1 else { return forms.first }
        let index = plural(count)
        return forms.indices.contains(index) ? forms[index] : forms.last
    }

    private enum Piece {
        case words(String)
        case argument(Int)
    }

    /// "%1$s of %2$d" → words and zero-based argument indices; `%s`, `%d` take the next one, `%%` is "%".
    private static func pieces(_ format: String) -> [Piece] {
        var pieces: [Piece] = []
        var words = ""
        var next = 0
        var rest = Substring(format)
        while let percent = rest.firstIndex(of: "%") {
            words += rest[..<percent]
            if rest[rest.index(after: percent)...].first == "%" {
                words += "%"
                rest = rest[rest.index(percent, offsetBy: 2)...]
                continue
            }
            var cursor = rest.index(after: percent)
            var digits = ""
            while cursor < rest.endIndex, rest[cursor].isASCII, rest[cursor].isNumber {
                digits.append(rest[cursor])
                cursor = rest.index(after: cursor)
            }
            var index = next
            if !digits.isEmpty, cursor < rest.endIndex, rest[cursor] == "$", let number = Int(digits) {
                index = number - 1
                cursor = rest.index(after: cursor)
            } else {
                cursor = rest.index(after: percent)
            }
            guard cursor < rest.endIndex, "sd".contains(rest[cursor]) else {
                words += "%"
                rest = rest[rest.index(after: percent)...]
                continue
            }
            if !words.isEmpty { pieces.append(.words(words)) }
            words = ""
            pieces.append(.argument(index))
            next = index + 1
            rest = rest[rest.index(after: cursor)...]
        }
        words += rest
        if !words.isEmpty { pieces.append(.words(words)) }
        return pieces
    }

    /// The zero-based argument indices a message uses, as a test compares them between catalogs.
    static func placeholders(_ format: String) -> Set<Int> {
        Set(pieces(format).compactMap { if case .argument(let index) = $0 { index } else { nil } })
    }

    private static func fill(_ format: String, _ arguments: [any CustomStringConvertible]) -> String {
        pieces(format).map { piece in
            switch piece {
            case .words(let words): words
            case .argument(let index): arguments.indices.contains(index) ? arguments[index].description : ""
            }
        }.joined()
    }
}
