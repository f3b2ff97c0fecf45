import Foundation
import Testing

@testable import OTCPromptSettings

/// The docs' option lists are generated from the declarations; `OTC_PROMPT_UPDATE_DOCS=1 swift test --filter
/// OptionTablesTests` rewrites them.
@Suite struct OptionTablesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(arguments: [("README.md", true), ("docs/user-guide.md", false)])
    func theDocsListTheDeclaredOptions(path: String, isReadme: Bool) throws {
        let url = Self.root.appendingPathComponent(path)
        let document = try String(contentsOf: url, encoding: .utf8)
        let generated = isReadme ? OptionTables.readme : OptionTables.userGuide
        let expected = try #require(OptionTables.replacingGenerated(in: document, with: generated), "no markers")
        if ProcessInfo.processInfo.environment["OTC_PROMPT_UPDATE_DOCS"] == "1", expected != document {
            try expected.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        #expect(document == expected, "run OTC_PROMPT_UPDATE_DOCS=1 swift test --filter OptionTablesTests")
    }

    @Test(arguments: ["README.md", "docs/user-guide.md"])
    func theDocsListEveryConfigKey(path: String) throws {
        let url = Self.root.appendingPathComponent(path)
        let document = try String(contentsOf: url, encoding: .utf8)
        let expected = try #require(
            OptionTables.replacingGenerated(in: document, with: OptionTables.configKeys, marker: "config-keys"),
            "no config-keys markers")
        if ProcessInfo.processInfo.environment["OTC_PROMPT_UPDATE_DOCS"] == "1", expected != document {
            try expected.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        #expect(document == expected, "run OTC_PROMPT_UPDATE_DOCS=1 swift test --filter OptionTablesTests")
    }

    /// The user guide's example of a bad file quotes the reader's own words for an unknown setting, with every key.
    @Test func theUserGuidesUnknownSettingExampleListsTheKeysTheReaderLists() throws {
        let guide = try String(contentsOf: Self.root.appendingPathComponent("docs/user-guide.md"), encoding: .utf8)
        #expect(guide.contains("unknown setting \"colour\" (known: \(ConfigFileSettings.knownKeys)); ignored"))
    }

    @Test func theConfigKeysListHoldsEveryKeyTheFileAccepts() {
        for setting in Settings.all {
            #expect(OptionTables.configKeys.contains("`\(setting.name)`") == setting.inConfigFile, "\(setting.name)")
        }
        #expect(OptionTables.configKeys.contains("`escape-delay`"))
    }

    @Test func everyOptionAppearsInBothLists() {
        for setting in Settings.all {
            #expect(OptionTables.readme.contains("--\(setting.name)"))
            #expect(OptionTables.userGuide.contains("--\(setting.name)"))
        }
    }
}
