import ArgumentParser

extension Option {
    /// The option `setting` declares: its names, help, completion and parsing.
    public init<T>(_ setting: Setting<T>) where Value == T? {
        self.init(
            name: setting.nameSpecification, help: setting.argumentHelp, completion: setting.completion,
            transform: { text in
                switch setting.parseArgument(text) {
                case .success(let value): return value
                case .failure(let error): throw ValidationError(error.description)
                }
            })
    }
}

extension Flag where Value == Bool {
    /// The flag `setting` declares: off unless given.
    public init(_ setting: Setting<Bool>) {
        self.init(wrappedValue: false, name: setting.nameSpecification, help: setting.argumentHelp)
    }
}

extension Setting {
    var nameSpecification: NameSpecification {
        shortName.map { [.customShort($0), .customLong(name)] } ?? [.customLong(name)]
    }

    var argumentHelp: ArgumentHelp {
        ArgumentHelp(
            plainText(helpLine), discussion: details.map(plainText) ?? "",
            valueName: domain.valueName.isEmpty ? nil : domain.valueName)
    }

    var completion: CompletionKind? {
        if let choices = domain.choices { return .list(choices) }
        if let extensions = domain.fileExtensions { return .file(extensions: extensions) }
        return nil
    }
}

extension AnySetting {
    /// The summary with the range and the default, as `--help` and the option tables show it.
    public var helpLine: String {
        var facts: [String] = []
        if let range = allowed.rangeText, choices == nil { facts.append(range) }
        if let defaultDescription, !(valueName.isEmpty && defaultDescription == "false") {
            facts.append("default: \(defaultDescription)")
        }
        return facts.isEmpty ? summary : "\(summary) (\(facts.joined(separator: "; ")))"
    }
}

extension String {
    /// "80–450" from "a number from 80 to 450".
    var rangeText: String? {
        guard hasPrefix("a number from ") || hasPrefix("a number of seconds from ") else { return nil }
        let parts = split(separator: " ").suffix(3)
        guard parts.count == 3, parts[parts.startIndex + 1] == "to" else { return nil }
        return "\(parts.first!)–\(parts.last!)"
    }
}

/// Markdown's `code` and **bold** as plain terminal text.
func plainText(_ markdown: String) -> String {
    markdown.replacing("**", with: "").replacing("`", with: "")
}
