/// A language the prompt speaks: its catalog of phrases, and what the speech engines call it.
/// Adding one is a catalog in `po/` and `make catalogs`, which registers it in the generated
/// `Catalogs.swift` (`en`, `ptBR`, `allCases`…) from the file's name and header (docs/translating.md).
public struct Language: Sendable, Hashable, RawRepresentable, CaseIterable, CustomStringConvertible {
    /// The BCP 47 tag the user names it by (`--lang`, the config file): "en", "pt-BR".
    public let tag: String
    /// The espeak-ng voice that reads it ("pt-br"), as `espeak-ng --voices` lists it.
    public let espeakVoice: String
    /// The language code speech-dispatcher's SSIP `SET self LANGUAGE` takes ("pt-BR").
    public let speechDispatcherCode: String
    /// The generated table of its messages and the phrases made of them, each built the first
    /// time it is needed: finding the language among all those registered builds none of them.
    private let loadCatalog: @Sendable () -> Catalog
    private let loadPhrases: @Sendable () -> Phrases

    init(
        tag: String, espeakVoice: String, speechDispatcherCode: String,
        catalog: @escaping @autoclosure @Sendable () -> Catalog, phrases: @escaping @autoclosure @Sendable () -> Phrases
    ) {
        self.tag = tag
        self.espeakVoice = espeakVoice
        self.speechDispatcherCode = speechDispatcherCode
        loadCatalog = catalog
        loadPhrases = phrases
    }

    /// Its messages; a message it lacks is said in English.
    var catalog: Catalog { loadCatalog() }
    var phrases: Phrases { loadPhrases() }

    public var rawValue: String { tag }
    public var description: String { tag }

    /// A tag or a locale name, as `--lang` and the config file take it ("pt-BR", "pt_BR.UTF-8").
    public init?(rawValue: String) {
        guard let language = Self.matching(rawValue) else { return nil }
        self = language
    }

    public static func == (lhs: Language, rhs: Language) -> Bool { lhs.tag == rhs.tag }
    public func hash(into hasher: inout Hasher) { hasher.combine(tag) }
}

extension Language {
    /// The language of the messages as gettext finds it: `LANGUAGE` (a colon list, the first
    /// supported wins), then `LC_ALL`, `LC_MESSAGES`, `LANG`, the first set; C, POSIX and anything
    /// unsupported mean English.
    ///
    /// glibc's gettext ignores `LANGUAGE` when the messages' locale is C: set to C or POSIX, or not
    /// set at all (C.UTF-8 is not C: `LC_ALL=C.UTF-8 LANGUAGE=pt` speaks Portuguese, as `grep` does).
    public static func fromEnvironment(_ environment: [String: String]) -> Language {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        guard let locale, !isCLocale(locale) else { return .en }
        for name in (environment["LANGUAGE"] ?? "").split(separator: ":") {
            if let language = matching(String(name)) { return language }
        }
        return matching(locale) ?? .en
    }

    /// The supported language a locale name or tag names: the exact region first ("pt_BR" is
    /// pt-BR), then the language's own catalog ("pt", "pt_PT" and "pt_AO" are pt, European
    /// Portuguese; "de_AT" is de), then any of its regions (a language with only a regional
    /// catalog); nil for one not supported.
    public static func matching(_ name: String) -> Language? {
        let (language, region) = parts(name)
        guard !language.isEmpty, !isCLocale(name) else { return nil }
        let sameLanguage = allCases.filter { parts($0.tag).language == language }
        return sameLanguage.first { !region.isEmpty && parts($0.tag).region == region }
            ?? sameLanguage.first { parts($0.tag).region.isEmpty }
            ?? sameLanguage.first { parts($0.tag).region == language }
            ?? sameLanguage.first
    }

    /// "pt_BR.UTF-8@euro" → ("pt", "br"); "pt-BR" → ("pt", "br"); "en" → ("en", "").
    private static func parts(_ name: String) -> (language: String, region: String) {
        let base = name.split(whereSeparator: { $0 == "." || $0 == "@" }).first.map(String.init) ?? ""
        let pieces = base.lowercased().split(whereSeparator: { $0 == "_" || $0 == "-" }).map(String.init)
        return (pieces.first ?? "", pieces.count > 1 ? pieces[1] : "")
    }

    /// C and POSIX, not C.UTF-8: the locales in which gettext translates nothing.
    private static func isCLocale(_ name: String) -> Bool {
        name == "C" || name == "POSIX"
    }
}
