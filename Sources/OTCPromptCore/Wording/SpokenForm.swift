/// What the voice is handed for an utterance, beside what the screen shows: identifiers said as identifiers.
///
/// The screen, the text lines and a braille display keep a caller's words whole ("ID A4F949FB1C0D272A"), which is
/// what a reader compares. The voice gets the same words with every identifier spelled in groups of characters, as
/// a code is read back, so that espeak-ng never reads one as a number ("… seven thousand seven hundred forty-nine")
/// or as a word ("EDDSA" as "Edsa"); and with punctuation said once where a caller's line and ours meet ("…,." or
/// ". ?"). The speech log records both (`SpeechLogEntry.said`) where they differ.
///
/// What is an identifier:
/// - an opaque word: after an optional "NAME:" prefix, 12 or more letters and digits mixed, or 16 or more hex digits
///   and colons (a fingerprint, "SHA256:3uW0…", "MD5:ab:cd:…"): groups of four;
/// - a key ID or serial of 8 to 15 hex digits, letters and digits mixed ("1C0D272A"): groups of four;
/// - a number of five digits or more (a serial number), or a name mixing letters and a run of three digits or
///   more ("ED25519", "md127"): one group up to seven characters, the code's groups beyond (4-4 for eight);
/// - an acronym espeak-ng says as a word in some language (`spelledAcronyms`): as letters.
/// A word is cut at "-", "_", "/", ".", "@" and "+" first, so "255-bit" and "sda2_crypt" stay words.
public enum SpokenForm {
    /// `utterance` as the voice says it: line breaks as their spoken joiners, identifiers as characters.
    public static func said(_ utterance: Utterance) -> Utterance {
        var flat = Utterance([])
        for segment in utterance.segments {
            if case .lineBreak(let spoken, _) = segment { flat += spoken } else { flat.append(segment) }
        }
        var result = Utterance([])
        for segment in flat.segments {
            if case .words(let words) = segment { result += self.words(words) } else { result.append(segment) }
        }
        return result
    }

    /// Acronyms espeak-ng 1.51 reads as a word in at least one of the languages ("EDDSA" "Edsa", "OTP" "otp",
    /// "RSA" in French and Portuguese): always said letter by letter.
    static let spelledAcronyms: Set<String> = [
        "CCID", "DSA", "ECC", "ECDH", "ECDSA", "EDDSA", "ELG", "HOTP", "HSM", "OIDC", "OTP", "PIV", "PKCS", "PUK",
        "RSA", "SK", "TOTP", "UEFI",
    ]

    /// Prose: punctuation said once, then each identifier spelled; the spaces between words kept.
    static func words(_ text: String) -> Utterance {
        var result = Utterance([])
        var word = ""
        func flush() {
            guard !word.isEmpty else { return }
            result += identifier(word) ?? Utterance(word)
            word = ""
        }
        for character in collapsingPunctuation(text) {
            if character.isWhitespace {
                flush()
                result += String(character)
            } else {
                word.append(character)
            }
        }
        flush()
        return result
    }

    /// `word` with its identifiers as characters; nil when it holds none.
    static func identifier(_ word: String) -> Utterance? {
        var core = Substring(word)
        var leading = ""
        while let first = core.first, "(\"'[".contains(first) {
            leading.append(first)
            core.removeFirst()
        }
        var trailing = ""
        while let last = core.last, ".,;:)!?'\"]".contains(last) {
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
        let spelled: Utterance
        if isOpaque(core) || isHexIdentifier(core) {
            spelled = .characters(inFours(core.filter { $0 != ":" }.map(String.init)))
        } else if prefix.isEmpty, let parts = subwords(core) {
            spelled = parts
        } else {
            return nil
        }
        return Utterance(leading + prefix) + spelled + trailing
    }

    /// The word cut at its separators, each part that is an identifier spelled; nil when none is.
    private static func subwords(_ word: Substring) -> Utterance? {
        var result = Utterance([])
        var changed = false
        var part = ""
        func flush() {
            guard !part.isEmpty else { return }
            if let spelled = spelledPart(part) {
                result += spelled
                changed = true
            } else {
                result += part
            }
            part = ""
        }
        for character in word {
            if "-_/.@+".contains(character) {
                flush()
                result += String(character)
            } else {
                part.append(character)
            }
        }
        flush()
        return changed ? result : nil
    }

    private static func spelledPart(_ part: String) -> Utterance? {
        let characters = part.map(String.init)
        let ascii = part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        guard ascii, !part.isEmpty else { return nil }
        if spelledAcronyms.contains(part) { return .characters([characters]) }
        let digitsOnly = part.allSatisfy(\.isNumber)
        let hasLetter = part.contains(where: \.isLetter)
        if (digitsOnly && part.count >= 5) || (hasLetter && longestDigitRun(part) >= 3) {
            // As written: a device name's case says nothing, and the voice spells either. A short name is one group.
            let groups =
                part.count <= 7 ? [Array(part)] : CodeGrouping.characterGroups(Array(part), length: part.count)
            return .characters(groups.map { $0.map(String.init) })
        }
        return nil
    }

    /// The longest run of digits in `text`.
    private static func longestDigitRun(_ text: String) -> Int {
        var longest = 0
        var run = 0
        for character in text {
            run = character.isNumber ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }

    private static func inFours(_ characters: [String]) -> [[String]] {
        stride(from: 0, to: characters.count, by: 4).map { Array(characters[$0..<min($0 + 4, characters.count)]) }
    }

    /// A fingerprint or a long key ID: 12 or more ASCII letters and digits mixed (base64's "+/=_-" too), or 16 or
    /// more hex digits and colons.
    static func isOpaque(_ word: Substring) -> Bool {
        let hasLetter = word.contains { $0.isASCII && $0.isLetter }
        let hasDigit = word.contains { $0.isASCII && $0.isNumber }
        let isHex = word.count >= 16 && word.allSatisfy { $0.isHexDigit || $0 == ":" }
        let isMixed =
            word.count >= 12 && hasLetter && hasDigit
            && word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+/=_-".contains($0)) }
        return isHex || isMixed
    }

    /// A short key ID or serial: 8 to 15 hex digits, letters and digits mixed ("1C0D272A").
    static func isHexIdentifier(_ word: Substring) -> Bool {
        (8...15).contains(word.count) && word.allSatisfy(\.isHexDigit) && word.contains(where: \.isLetter)
            && word.contains(where: \.isNumber)
    }

    /// Punctuation where a caller's line and ours meet said once: of two marks in a row (spaces between), the
    /// stronger is kept ("?" and "!" over "." over ":" over ";" over ","), so "ID 1C0D,." is "ID 1C0D." and
    /// "created 2026-11-28. ?" is "created 2026-11-28?". Dots in a row (an ellipsis) stay.
    static func collapsingPunctuation(_ text: String) -> String {
        func strength(_ mark: Character) -> Int? {
            switch mark {
            case "?", "!": 5
            case ".": 4
            case ":": 3
            case ";": 2
            case ",": 1
            default: nil
            }
        }
        var output: [Character] = []
        for character in text {
            guard let new = strength(character) else {
                output.append(character)
                continue
            }
            var end = output.count
            while end > 0, output[end - 1] == " " { end -= 1 }
            guard end > 0, let old = strength(output[end - 1]), !(character == "." && output[end - 1] == ".") else {
                output.append(character)
                continue
            }
            if new >= old {
                output.removeSubrange((end - 1)...)
                output.append(character)
            }
        }
        return String(output)
    }
}
