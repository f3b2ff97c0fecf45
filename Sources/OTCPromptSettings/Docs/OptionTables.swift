import OTCPromptCore

/// The docs' option lists, generated from the declarations (a test keeps README.md and docs/user-guide.md equal).
public enum OptionTables {
    /// The user guide's tables: one per group, "option | meaning".
    public static var userGuide: String {
        SettingGroup.allCases.map { group in
            let rows = Settings.all.filter { $0.group == group }.map { setting in
                let file = setting.inConfigFile ? "Config file: `\(setting.name) = …`." : nil
                let meaning = [setting.helpLine, setting.details, file].compactMap { $0 }.joined(separator: " ")
                return
                    "| `\(synopsis(setting).replacing(text: "|", with: "\\|"))` | \(meaning.replacing(text: "|", with: "\\|")) |"
            }
            return "\(group.title):\n\n| option | meaning |\n|---|---|\n" + rows.joined(separator: "\n")
        }.joined(separator: "\n\n")
    }

    /// The README's compact list, in a code block.
    public static var readme: String {
        let lines = Settings.all.map { setting in
            let name = synopsis(setting)
            let padded = name.count < 27 ? name + String(repeating: " ", count: 27 - name.count) : name + "  "
            return "  " + padded + plainText(setting.helpLine)
        }
        return "```\notc-prompt [PROMPT] [options]\n" + lines.joined(separator: "\n") + "\n```"
    }

    /// The keys the config file may hold, in the docs' order: "`lang`, `speech`, …". README.md and the user guide list
    /// them between `<!-- config-keys:begin -->` and `<!-- config-keys:end -->`, so no key is ever left out.
    public static var configKeys: String {
        Settings.all.filter(\.inConfigFile).map { "`\($0.name)`" }.joined(separator: ", ")
    }

    /// "-n, --length N", "--mask".
    static func synopsis(_ setting: any AnySetting) -> String {
        let short = setting.shortName.map { "-\($0), " } ?? ""
        let value = setting.valueName.isEmpty ? "" : " " + setting.valueName
        return short + "--" + setting.name + value
    }

    /// The text between `<!-- options:begin -->` and `<!-- options:end -->` (or another `marker`'s pair) in
    /// `document` replaced by `generated`; nil when the markers are missing.
    public static func replacingGenerated(in document: String, with generated: String, marker: String = "options")
        -> String?
    {
        guard let begin = document.firstRange(ofText: "<!-- \(marker):begin -->"),
            let end = document.firstRange(ofText: "<!-- \(marker):end -->"), begin.upperBound <= end.lowerBound
        else { return nil }
        return String(document[..<begin.upperBound]) + "\n" + generated + "\n" + String(document[end.lowerBound...])
    }
}
