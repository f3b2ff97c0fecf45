/// The words of every announcement, in one language. Codes are always spoken character by
/// character, grouped, never as a number; in mask mode no text contains a character of the code
/// (nor any typed character): counts only.
///
/// Every text is kept short (the user hears it on each key); `terse` drops hints, never information.
public struct Wording: Sendable {
    public let language: Language
    let phrases: Phrases

    public init(language: Language) {
        self.language = language
        phrases = language.phrases
    }

    /// How the prompt is set up, as far as the words are concerned.
    public struct Style: Equatable, Sendable {
        public var mask: Bool
        public var autoSubmit: Bool
        public var verbosity: Verbosity
        public var spelling: Spelling

        public init(
            mask: Bool = false, autoSubmit: Bool = true, verbosity: Verbosity = .normal, spelling: Spelling = .plain
        ) {
            self.mask = mask
            self.autoSubmit = autoSubmit
            self.verbosity = verbosity
            self.spelling = spelling
        }

        public init(_ configuration: PromptConfiguration) {
            self.init(
                mask: configuration.mask, autoSubmit: configuration.autoSubmit, verbosity: configuration.verbosity,
                spelling: configuration.spelling)
        }

        var hints: Bool { verbosity != .terse }
        var verbose: Bool { verbosity == .verbose }
    }

    /// The field's label when none is given.
    public var defaultLabel: String { phrases.defaultLabel }

    /// How to ask for the time left, added to the key help under `--timeout`.
    public var timeLeftKey: String { phrases.timeLeftKey }

    /// `text` with its first letter in upper case, to start a sentence.
    public static func capitalized(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }

    /// The key help (`?`): the keys, after the typing hint unless terse.
    public func help(field: CodeField, style: Style) -> String {
        var parts = [phrases.keys(style.mask)]
        if style.hints { parts.insert(phrases.typeHint(field.charset, field.kind, style.autoSubmit), at: 0) }
        if style.verbose { parts.append(phrases.redrawKey) }
        return parts.joined(separator: " ")
    }

    /// A character was accepted; `field` holds it already. Just the character for fast listeners
    /// (verbose adds its position); mask mode: "bullet" and the count.
    public func typed(_ character: Character, field: CodeField, style: Style) -> Utterance {
        var parts = [style.mask ? Utterance(phrases.bullet) : say(character, field, style)]
        if style.mask || style.verbose { parts.append(Utterance(position(field))) }
        if field.isFull {
            parts.append(Utterance(field.kind == .code ? phrases.filled : phrases.textFull(field.length)))
            if style.hints { parts.append(Utterance(phrases.pressEnter)) }
        }
        return parts.joined(separator: ", ")
    }

    /// The field is complete and submitted. `character` is the key that completed it, if typed.
    public func completed(by character: Character? = nil, field: CodeField, style: Style) -> Utterance {
        var text =
            character.map { (style.mask ? Utterance(phrases.bullet) : say($0, field, style)) + ", " } ?? Utterance([])
        text += field.kind == .code ? phrases.complete : phrases.submitted
        if style.verbose && !style.mask { text += ": " + spell(field, style) }
        return text
    }

    /// A character arrived with the field already full. `field`: a free-text field says its
    /// maximum rather than "code full".
    public func full(field: CodeField? = nil, style: Style) -> String {
        let full =
            field.map { $0.kind == .code ? phrases.alreadyFull : phrases.textFull($0.length) } ?? phrases.alreadyFull
        return style.hints && !style.autoSubmit ? full + ", " + phrases.pressEnter : full
    }

    /// A character the charset does not allow; mask mode does not name it.
    public func notAllowed(_ character: Character, field: CodeField, style: Style) -> Utterance {
        phrases.notAllowed(style.mask ? nil : CodeCharset.foldFullWidth(character)) + ", "
            + phrases.only(field.charset)
    }

    /// The last character was deleted; `field` no longer holds it.
    public func deleted(_ character: Character, field: CodeField, style: Style) -> Utterance {
        if style.mask { return Utterance(phrases.deleted + ", " + position(field)) }
        let text = phrases.deleted + " " + say(character, field, style)
        return style.verbose ? text + ", " + position(field) : text
    }

    /// Backspace on an empty field.
    public var nothingToDelete: String { phrases.empty }

    /// Ctrl-U emptied the field.
    public func cleared(field: CodeField, style: Style) -> String {
        style.verbose ? phrases.cleared + ", " + position(field) : phrases.cleared
    }

    /// Ctrl-R: the value as one unit, then how many of how many are entered.
    public func readBack(field: CodeField, style: Style) -> Utterance {
        if field.isEmpty {
            return Utterance(field.kind == .code ? phrases.empty + ", " + position(field) : phrases.empty)
        }
        if style.mask { return Utterance(entered(field)) }
        // A full code ends "All 6." rather than "6 of 6.": as clear, and short enough to keep the
        // whole readback under 3 s of audio at the default rate in both languages.
        if field.kind == .code && field.isFull { return spell(field, style) + ". " + phrases.allEntered(field.length) }
        return spell(field, style) + ". " + position(field)
    }

    /// Enter before the code is complete.
    public func incomplete(field: CodeField, style: Style) -> String {
        guard field.kind == .code else { return phrases.empty }
        let count = field.isEmpty ? phrases.empty : entered(field)
        return count + ", " + phrases.missing(field.remaining)
    }

    public var cancelled: String { phrases.cancelled }

    /// A paste added `characters` at `offset` (or, `extracted`, replaced the field with the code
    /// found in it). `overflowed`: some pasted characters did not fit.
    public func pasted(
        _ characters: [Character], offset: Int, extracted: Bool, overflowed: Bool, field: CodeField, style: Style,
        needsEnter: Bool = false
    ) -> Utterance {
        var text = pasteHeading(characters, offset: offset, extracted: extracted, field: field, style: style)
        text += (style.mask ? ", " : ". ") + position(field)
        if overflowed { text += ", " + (field.kind == .code ? phrases.restDidNotFit : phrases.textFull(field.length)) }
        // After a cut or unmarked paste Enter is needed even with auto-submit, so it is said even when terse.
        let cutCode = overflowed && field.kind == .code
        if field.isFull && (cutCode || needsEnter || style.hints && !style.autoSubmit) {
            text += ", " + phrases.pressEnter
        }
        return text
    }

    /// A paste completed the field and it is submitted: one announcement, never one per character.
    public func pasteCompleted(
        _ characters: [Character], offset: Int, extracted: Bool, field: CodeField, style: Style
    ) -> Utterance {
        let heading = pasteHeading(characters, offset: offset, extracted: extracted, field: field, style: style)
        return heading + ", " + phrases.complete
    }

    /// The paste held no usable code; the field is unchanged.
    public func pasteRejected(field: CodeField) -> String {
        guard field.kind == .code else { return phrases.textPasteRejected }
        return phrases.pasteRejected(kind(field, Style()))
    }

    /// The paste held nothing but separators.
    public var nothingPasted: String { phrases.nothingPasted }

    // MARK: - Pieces

    private func pasteHeading(
        _ characters: [Character], offset: Int, extracted: Bool, field: CodeField, style: Style
    ) -> Utterance {
        let heading = extracted ? phrases.foundInPaste : phrases.pasted
        if style.mask { return Utterance(heading) }
        return heading + ": " + spell(characters, field: field, style: style, offset: offset)
    }

    /// Free-text secrets have no fixed groups: they are grouped by what is there.
    func spokenLength(_ field: CodeField) -> Int {
        field.kind == .code ? field.length : field.count
    }

    func position(_ field: CodeField) -> String {
        field.kind == .code ? phrases.position(field.count, field.length) : phrases.enteredFree(field.count)
    }

    func entered(_ field: CodeField) -> String {
        field.kind == .code ? phrases.entered(field.count, field.length) : phrases.enteredFree(field.count)
    }

    func kind(_ field: CodeField, _ style: Style) -> FieldDescription {
        FieldDescription(kind: field.kind, length: field.length, charset: field.charset, mask: style.mask)
    }

    /// `?` asks for help only where it cannot be part of the code.
    func helpKeyWorks(_ field: CodeField) -> Bool {
        field.charset.accept("?") == nil
    }
}

/// What the prompt names the field by ("6-digit code", "secret text").
struct FieldDescription: Sendable {
    var kind: FieldKind
    var length: Int
    var charset: CodeCharset
    var mask: Bool
}

/// One language's words, taken from its catalog (`Phrases+Catalog`); `Wording` puts them together.
struct Phrases: Sendable {
    var defaultLabel: String
    var empty: String
    /// "3 of 6"
    var position: @Sendable (_ count: Int, _ length: Int) -> String
    /// "3 of 6 entered"
    var entered: @Sendable (_ count: Int, _ length: Int) -> String
    /// "3 entered", for free-text secrets
    var enteredFree: @Sendable (_ count: Int) -> String
    /// "2 missing"
    var missing: @Sendable (_ count: Int) -> String
    /// "6-digit code"
    var kind: @Sendable (FieldDescription) -> String
    /// "Type the digits." (a whole sentence)
    var typeHint: @Sendable (_ charset: CodeCharset, _ kind: FieldKind, _ autoSubmit: Bool) -> String
    /// "Control R reads them back"
    var readBackHint: @Sendable (_ mask: Bool) -> String
    var helpHint: String
    /// Every key, one sentence.
    var keys: @Sendable (_ mask: Bool) -> String
    var redrawKey: String
    var bullet: String
    var deleted: String
    var cleared: String
    /// Said with the character that fills the field.
    var filled: String
    /// Said when a character arrives with the field full.
    var alreadyFull: String
    var pressEnter: String
    var complete: String
    /// A free-text answer (password, user name) was submitted: it is not a "code".
    var submitted: String
    /// A paste held more characters than the field had room for.
    var restDidNotFit: String
    var timeLeftKey: String
    /// Ctrl-R on a full code: every character is entered.
    var allEntered: @Sendable (Int) -> String
    var cancelled: String
    /// "letter X not allowed"; nil: a character that must not be named (mask mode).
    var notAllowed: @Sendable (Character?) -> Utterance
    /// "digits only"
    var only: @Sendable (CodeCharset) -> String
    var pasted: String
    var foundInPaste: String
    var pasteRejected: @Sendable (FieldDescription) -> String
    var nothingPasted: String
    /// The name of a symbol or space, said in free text where it may be part of the secret.
    var symbolName: @Sendable (Character) -> String?
    /// Said between the groups of a spelled code: ", ".
    var groupSeparator: String
    /// "letter O": a letter that could be taken for a digit.
    var letter: @Sendable (Utterance) -> Utterance
    /// "capital A", "capital Alfa": an upper-case letter where case matters.
    var capital: @Sendable (Utterance) -> Utterance
    /// The spelling alphabet's words for A to Z (`--spell phonetic`).
    var phonetic: [String]
    /// A free-text field is full: "full, 256 at most".
    var textFull: @Sendable (Int) -> String
    /// A paste into free text held a line break or control character.
    var textPasteRejected: String
    var outcome: OutcomePhrases
    var speechFallback: SpeechFallbackPhrases
    var question: QuestionPhrases
}
