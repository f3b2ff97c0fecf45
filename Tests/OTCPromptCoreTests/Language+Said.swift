@testable import OTCPromptCore

/// A phrase as a language says it, looked up by its message's name: tests name the message
/// rather than branch on the language.
extension Language {
    /// The languages whose exact words the golden tests spell out, agreements and plurals
    /// included; a language added later is held to its catalog by CatalogTests and the tests
    /// that look its phrases up.
    static let withGoldenTexts: [Language] = [.en, .ptBR]

    func said(_ name: String, _ arguments: any CustomStringConvertible...) -> String {
        catalog.text(name, arguments: arguments)
    }

    func said(_ name: String, count: Int) -> String {
        catalog.plural(name, count: count, count)
    }
}
