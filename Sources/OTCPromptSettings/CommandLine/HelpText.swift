/// The text of `--help`, generated from the declarations.
///
/// Made to be read by a screen reader as well as by eye: each option on a line of its own, its help on the lines
/// below, indented; no columns padded with spaces, so nothing depends on alignment.
public enum HelpText {
    /// The help, wrapped at `width` columns. `notes` adds a line under a setting, by its name: what holds here
    /// and now (which speech `auto` chooses, and why), which the declarations alone cannot know.
    public static func text(width: Int = 80, notes: [String: String] = [:]) -> String {
        var lines = wrapped("\(Program.name): \(Program.abstract)", width: width)
        lines += ["", "Usage: \(Program.usage)", ""]
        for paragraph in Program.discussion {
            lines += wrapped(paragraph, width: width) + [""]
        }
        let statuses = Program.exitStatuses.map { "\($0.status) \($0.meaning)" }.joined(separator: ", ")
        lines += wrapped("Exit status: \(statuses).", width: width) + [""]
        lines += ["\(Program.promptName):"] + wrapped(Program.promptHelp, width: width, indent: "    ") + [""]
        for group in SettingGroup.allCases {
            lines.append("\(group.title):")
            for setting in Settings.all where setting.group == group {
                lines.append("  " + OptionTables.synopsis(setting))
                lines += wrapped(plainText(setting.helpLine), width: width, indent: "    ")
                if let details = setting.details {
                    lines += wrapped(plainText(details), width: width, indent: "    ")
                }
                if let note = notes[setting.name] {
                    lines += wrapped(note, width: width, indent: "    ")
                }
            }
            lines.append("")
        }
        lines.append("Other:")
        for option in Program.standardOptions {
            lines.append("  " + (option.short.map { "-\($0), " } ?? "") + "--" + option.long)
            lines += wrapped(option.help, width: width, indent: "    ")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` broken at spaces into lines of at most `width` columns (a longer word stays whole), each indented.
    static func wrapped(_ text: String, width: Int, indent: String = "") -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if line.isEmpty {
                line = indent + word
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = indent + word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
