import OTCPromptSettings

/// The shell completions, one script per shell, generated from the declarations: every option, the choices of a
/// setting that has them, file names where a setting names a file, nothing after `--` (only PROMPT).
public enum Completions {
    /// Every option as the completions offer it: (names with dashes, the setting, or nil for --help/--version).
    static var options: [(names: [String], setting: (any AnySetting)?, help: String)] {
        Settings.all.map { setting in
            let names = (setting.shortName.map { ["-\($0)"] } ?? []) + ["--" + setting.name]
            return (names, setting, plainText(setting.helpLine))
        }
            + Program.standardOptions.map { option in
                ((option.short.map { ["-\($0)"] } ?? []) + ["--" + option.long], nil, option.help)
            }
    }

    /// For bash (bash-completion loads it from completions/otc-prompt; `complete -F` works without it too).
    public static var bash: String {
        var lines = [
            #"""
            # bash completion for otc-prompt, generated from its option declarations by otc-prompt-docs (make docs).
            _otc_prompt() {
                local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} i
                # After "--" only PROMPT is left: nothing to complete.
                for ((i = 1; i < COMP_CWORD; i++)); do
                    [[ ${COMP_WORDS[i]} == -- ]] && return 0
                done
                # --option=value: bash splits the word at "=" (COMP_WORDBREAKS), or keeps it whole.
                if [[ $cur == = ]]; then
                    cur=
                elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then
                    prev=${COMP_WORDS[COMP_CWORD-2]}
                elif [[ $cur == --*=* ]]; then
                    prev=${cur%%=*} cur=${cur#*=}
                fi
                case $prev in
            """#
        ]
        for (names, setting, _) in options {
            guard let setting, !setting.isFlag else { continue }
            let pattern = names.joined(separator: "|")
            if let choices = setting.choices {
                let words = choices.joined(separator: " ")
                lines.append(
                    #"    \#(pattern)) mapfile -t COMPREPLY < <(compgen -W "\#(words)" -- "$cur"); return 0 ;;"#)
            } else if let extensions = setting.fileExtensions {
                let filter = extensions.isEmpty ? "" : " -X '!*.@(\(extensions.joined(separator: "|")))'"
                let directories = extensions.isEmpty ? "" : #"; compgen -d -- "$cur""#
                lines.append(
                    #"    \#(pattern)) compopt -o filenames 2>/dev/null; "#
                        + #"mapfile -t COMPREPLY < <(compgen -f\#(filter) -- "$cur"\#(directories)); return 0 ;;"#)
            } else {
                lines.append("    \(pattern)) return 0 ;;")
            }
        }
        let all = options.flatMap(\.names).joined(separator: " ")
        lines.append(
            #"""
                esac
                if [[ $cur == -* ]]; then
                    mapfile -t COMPREPLY < <(compgen -W "\#(all)" -- "$cur")
                fi
                return 0
            }
            complete -F _otc_prompt otc-prompt
            """#)
        return lines.joined(separator: "\n") + "\n"
    }

    /// For zsh (`_otc-prompt` in a directory of `$fpath`).
    public static var zsh: String {
        var lines = [
            #"""
            #compdef otc-prompt
            # zsh completion for otc-prompt, generated from its option declarations by otc-prompt-docs (make docs).

            _otc-prompt() {
                _arguments -S : \
            """#
        ]
        for (names, setting, help) in options {
            let description = "[\(zshQuoted(help))]"
            var argument = ""
            if let setting, !setting.isFlag {
                let message = zshQuoted(setting.valueName)
                if let choices = setting.choices {
                    argument = ":\(message):(\(choices.joined(separator: " ")))"
                } else if let extensions = setting.fileExtensions {
                    let glob = extensions.isEmpty ? "" : " -g \"*.(\(extensions.joined(separator: "|")))\""
                    argument = ":\(message):_files\(glob)"
                } else {
                    argument = ":\(message): "
                }
            }
            let spelled = names.map { $0.hasPrefix("--") && !(setting?.isFlag ?? true) ? $0 + "=" : $0 }
            if spelled.count == 1 {
                lines.append("        '\(spelled[0])\(description)\(argument)' \\")
            } else {
                let exclusion = "(\(names.joined(separator: " ")))"
                lines.append(
                    "        '\(exclusion)'{\(spelled.joined(separator: ","))}'\(description)\(argument)' \\")
            }
        }
        lines.append(
            #"""
                    '::\#(Program.promptName): '
            }

            if [[ ${funcstack[1]} == _otc-prompt ]]; then
                _otc-prompt "$@"
            else
                compdef _otc-prompt otc-prompt
            fi
            """#)
        return lines.joined(separator: "\n") + "\n"
    }

    /// For fish (`otc-prompt.fish` in vendor_completions.d).
    public static var fish: String {
        var lines = [
            "# fish completion for otc-prompt, generated from its option declarations by otc-prompt-docs (make docs).",
            "complete -c otc-prompt -f",
        ]
        for (names, setting, help) in options {
            var parts = ["complete -c otc-prompt"]
            for name in names {
                parts.append(name.hasPrefix("--") ? "-l \(name.dropFirst(2))" : "-s \(name.dropFirst())")
            }
            if let setting, !setting.isFlag {
                if let choices = setting.choices {
                    parts.append("-x -a '\(choices.joined(separator: " "))'")
                } else if setting.fileExtensions != nil {
                    parts.append("-r -F")
                } else {
                    parts.append("-x")
                }
            }
            parts.append("-d '\(fishQuoted(help))'")
            lines.append(parts.joined(separator: " "))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text inside single quotes in an `_arguments` spec: the quote closed and reopened, and [ ] : escaped.
    static func zshQuoted(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "'": result += #"'\''"#
            case "[", "]", ":", "\\": result += "\\" + String(character)
            default: result.append(character)
            }
        }
        return result
    }

    /// Text inside single quotes for fish: backslash and quote escaped.
    static func fishQuoted(_ text: String) -> String {
        var result = ""
        for character in text {
            if character == "'" || character == "\\" { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
