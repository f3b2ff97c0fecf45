import OTCPromptCore

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
public func plainText(_ markdown: String) -> String {
    markdown.replacing(text: "**", with: "").replacing(text: "`", with: "")
}
