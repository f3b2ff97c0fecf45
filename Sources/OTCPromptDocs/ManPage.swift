import OTCPromptSettings

/// The man page, otc-prompt(1), in mdoc: the description, every declared option by group, the exit statuses.
public enum ManPage {
    public static var text: String {
        var lines = [
            #".\" Generated from the option declarations by otc-prompt-docs (make docs); do not edit."#,
            ".Dd \(OTCPromptVersion.date)",
            ".Dt OTC-PROMPT 1",
            ".Os \(Program.name) \(OTCPromptVersion.current)",
            ".Sh NAME",
            ".Nm \(Program.name)",
            ".Nd \(roff(lowercasedFirst(Program.abstract.dropLast())))",
            ".Sh SYNOPSIS",
            ".Nm",
        ]
        lines += Settings.all.map { ".Op " + flags($0) }
        lines += [".Op Ar \(Program.promptName)", ".Nm", ".Fl \\-help | \\-version"]
        lines.append(".Sh DESCRIPTION")
        lines += Array(Program.discussion.map { [roff($0)] }.joined(separator: [".Pp"]))
        lines += [".Pp", ".Ar \(Program.promptName)", "is \(roff(lowercasedFirst(Program.promptHelp)))"]
        lines.append(".Sh OPTIONS")
        for group in SettingGroup.allCases {
            lines += [".Ss \(group.title)", ".Bl -tag -width Ds"]
            for setting in Settings.all where setting.group == group {
                lines += [".It \(flags(setting))", roff(setting.helpLine)]
                if let details = setting.details { lines += [".Pp", roff(details)] }
            }
            lines.append(".El")
        }
        lines += [".Ss Other", ".Bl -tag -width Ds"]
        for option in Program.standardOptions {
            let short = option.short.map { "Fl \($0) , " } ?? ""
            lines += [".It \(short)Fl \\-\(option.long)", roff(option.help)]
        }
        lines.append(".El")
        lines += passwordAgent + files
        lines += [".Sh EXIT STATUS", ".Bl -tag -width Ds"]
        for (status, meaning) in Program.exitStatuses {
            lines += [".It \(roff(status))", roff(capitalizedFirst(meaning)) + "."]
        }
        lines += [
            ".El", ".Sh SEE ALSO", ".Xr espeak-ng 1 ,", ".Xr gpg-agent 1 ,", ".Xr ssh 1 ,",
            ".Xr systemd-ask-password 1 ,",
            ".Xr systemd-tty-ask-password-agent 1 ,", ".Xr sudo 8",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// "Fl n , Fl \-length Ar N": the option's names and its value, as mdoc macros.
    static func flags(_ setting: any AnySetting) -> String {
        let short = setting.shortName.map { "Fl \($0) , " } ?? ""
        let value = setting.isFlag ? "" : " Ar " + roff(setting.valueName)
        return short + "Fl \\-" + setting.name + value
    }

    /// Markdown (`code`, **bold**) as roff text: bold in bold, a dash that starts an option as a minus sign,
    /// a backslash escaped, anything beyond ASCII as a named character, no line that starts with a control dot.
    static func roff(_ markdown: some StringProtocol) -> String {
        var result = ""
        var bold = false
        var previous: Character = " "
        var index = markdown.startIndex
        while index < markdown.endIndex {
            let character = markdown[index]
            let next = markdown.index(after: index)
            if character == "*", next < markdown.endIndex, markdown[next] == "*" {
                result += bold ? "\\fR" : "\\fB"
                bold.toggle()
                index = markdown.index(after: next)
                continue
            }
            switch character {
            case "`": break
            case "\\": result += "\\e"
            case "-" where previous == " " || previous == "-" || previous == "(" || previous == "`":
                result += "\\-"
            default:
                for scalar in character.unicodeScalars {
                    result += scalar.isASCII ? String(scalar) : "\\[u\(hex(scalar.value))]"
                }
            }
            previous = character
            index = next
        }
        return result.hasPrefix(".") || result.hasPrefix("'") ? "\\&" + result : result
    }

    /// Four or more upper-case hexadecimal digits, as groff's \[uXXXX] wants them.
    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private static func lowercasedFirst(_ text: some StringProtocol) -> String {
        text.prefix(1).lowercased() + text.dropFirst()
    }

    private static func capitalizedFirst(_ text: String) -> String {
        text.first.map { $0.isLowercase ? $0.uppercased() + text.dropFirst() : text } ?? text
    }
}
