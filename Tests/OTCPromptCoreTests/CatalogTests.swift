import Foundation
import OTCPromptTestSupport
import Testing

@testable import OTCPromptCore

/// The gettext catalogs in po/ are the source of every phrase: the tables compiled from them are
/// current, every catalog is valid for gettext's tools and translates every message with the same
/// placeholders, and a missing translation is said in English.
@Suite struct CatalogTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let run = try runWithStatus(
            "/usr/bin/env", ["-C", root.path] + arguments, environment: ProcessInfo.processInfo.environment)
        return (exitStatus(run.status), run.output)
    }

    static var catalogFiles: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("po").path)) ?? []
        return names.filter { $0.hasSuffix(".po") || $0.hasSuffix(".pot") }.sorted().map { "po/" + $0 }
    }

    @Test func theCommittedTablesAreWhatTheCatalogsCompileTo() throws {
        let result = try Self.run(["python3", "scripts/catalogs.py", "--check"])
        #expect(result.status == 0, "\(result.output)")
    }

    @Test(arguments: catalogFiles)
    func gettextAcceptsTheCatalog(file: String) throws {
        let result = try Self.run(["msgfmt", "--check", "--output-file=/dev/null", file])
        #expect(result.status == 0, "\(file): \(result.output)")
    }

    @Test func thereIsATemplateAndACatalogPerTranslatedLanguage() {
        #expect(Self.catalogFiles.contains("po/otc-prompt.pot"))
        #expect(Self.catalogFiles.count == Language.allCases.count)
    }

    @Test(arguments: Language.allCases.dropFirst())
    func everyMessageIsTranslatedWithTheSamePlaceholders(language: Language) {
        let english = Catalog.en.messages
        for (name, forms) in english.sorted(by: { $0.key < $1.key }) {
            guard let translated = language.catalog.messages[name] else {
                Issue.record("\(language): \(name) is not translated")
                continue
            }
            let expected = forms.map(Catalog.placeholders).reduce(into: Set<Int>()) { $0.formUnion($1) }
            for form in translated {
                let used = Catalog.placeholders(form)
                // A plural form may leave its number unsaid ("Todos."), never another placeholder.
                let allowed = forms.count > 1 ? used.isSubset(of: expected) : used == expected
                #expect(allowed, "\(language): \(name): \(form)")
            }
            #expect(forms.count == 1 ? translated.count == 1 : translated.count > 1, "\(language): \(name)")
        }
        #expect(Set(language.catalog.messages.keys).isSubset(of: Set(english.keys)), "\(language): stale messages")
    }

    @Test func everyMessageTheCodeNamesIsInTheTemplate() throws {
        let source = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/OTCPromptCore/Wording/Phrases+Catalog.swift"),
            encoding: .utf8)
        let pattern = try Regex(#"catalog\.(?:text|plural|utterance|list)\("([^"]+)"[,)]"#)
        let names = source.matches(of: pattern).compactMap { $0.output[1].substring.map(String.init) }
        #expect(names.count > 50)
        for name in names { #expect(Catalog.en.messages[name] != nil, "\(name)") }
        for name in Phrases.symbolNames.values {
            #expect(
                Catalog.en.messages["symbol." + name] != nil && Catalog.en.messages["notAllowed.symbol." + name] != nil)
        }
    }

    @Test func aMessageMissingOrUntranslatedIsSaidInEnglish() {
        let partial = Catalog(pluralForm: { $0 == 1 ? 0 : 1 }, messages: ["empty": ["leer"], "cleared": [""]])
        #expect(partial.text("empty") == "leer")
        #expect(partial.text("cleared") == "cleared")
        #expect(partial.text("textFull", 256) == "full, 256 at most")
        #expect(partial.plural("attemptsLeft", count: 1, 1) == "1 attempt left")
    }

    @Test func placeholdersAreFilledByPositionOnce() {
        let catalog = Catalog(pluralForm: { _ in 0 }, messages: ["labelOr": ["%2$s (%1$s) 100%%"]])
        #expect(catalog.text("labelOr", "label", "%1$s") == "%1$s (label) 100%")
    }

    @Test(arguments: [(0, 1), (1, 0), (2, 1), (21, 1)])
    func brazilianPortugueseKeepsZeroPlural(count: Int, form: Int) {
        #expect(Catalog.ptBR.pluralForm(count) == form)
        #expect(Catalog.en.pluralForm(count) == form)
    }

    @Test(arguments: Language.allCases)
    func theListsOfAnswerWordsAreWholeWordsInLowerCase(language: Language) {
        for name in ["answer.yesWords", "answer.noWords"] {
            let words = language.catalog.list(name)
            #expect(
                !words.isEmpty && words.allSatisfy { $0.count > 1 && $0 == $0.lowercased() }, "\(language): \(name)")
        }
        #expect(language.catalog.list("answer.yesWords").contains(Wording(language: language).answer(true)))
        #expect(language.catalog.list("answer.noWords").contains(Wording(language: language).answer(false)))
    }

    /// Key names as the language's voice says them, checked by ear (`espeak-ng -v LL -x`): espeak-ng 1.51 spells German
    /// "Strg" letter by letter (S, T, R, G), so German says "Steuerung", as German screen readers do; French "Ctrl"
    /// is said "contrôle", and "Control" is a word in the others.
    @Test(arguments: Language.allCases)
    func keyNamesAreWordsTheVoiceSays(language: Language) {
        let spelled: [String: [String]] = ["de": ["Strg"]]
        for (name, forms) in language.catalog.messages {
            for form in forms {
                for abbreviation in spelled[language.tag] ?? [] {
                    #expect(!form.contains(abbreviation), "\(language): \(name): \(form)")
                }
            }
        }
        #expect(Wording(language: language).phrases.readBackHint(false).split(separator: " ").count >= 3)
    }
}
