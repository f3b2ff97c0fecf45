/// Text found and replaced in text with the standard library's core alone.
///
/// `String.contains(_:)`, `firstRange(of:)` and `replacing(_:with:)` with a string argument come from
/// `_StringProcessing`: one call links its regex engine and parser (about 1.3 MB) into the static binary.
/// `packaging/check-binary` fails when a `_StringProcessing` symbol comes back; use these instead.
extension StringProtocol {
    /// The first range where `other` occurs, compared character by character; nil when it does not.
    public func firstRange(ofText other: some StringProtocol) -> Range<Index>? {
        var start = startIndex
        while true {
            if self[start...].starts(with: other) { return start..<index(start, offsetBy: other.count) }
            guard start < endIndex else { return nil }
            formIndex(after: &start)
        }
    }

    /// The last range where `other` occurs, compared character by character; nil when it does not.
    public func lastRange(ofText other: some StringProtocol) -> Range<Index>? {
        var found: Range<Index>?
        var rest = self[...]
        while let range = rest.firstRange(ofText: other), !other.isEmpty {
            found = range
            rest = rest[index(after: range.lowerBound)...]
        }
        return found
    }

    /// Whether `other` occurs in this text, compared character by character.
    public func contains(text other: some StringProtocol) -> Bool {
        firstRange(ofText: other) != nil
    }

    /// This text without the characters at either end for which `isDropped` holds (Foundation's
    /// `trimmingCharacters(in:)`, without Foundation).
    public func trimmed(where isDropped: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !isDropped($0) }), let last = lastIndex(where: { !isDropped($0) })
        else { return "" }
        return String(self[first...last])
    }

    /// This text without whitespace (spaces, tabs, line ends) at either end.
    func droppingOuterWhitespace() -> String { trimmed(where: \.isWhitespace) }
}

extension String {
    /// This text with every occurrence of `target` (not empty) replaced by `replacement`, left to right.
    public func replacing(text target: String, with replacement: String) -> String {
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(ofText: target), !target.isEmpty {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
