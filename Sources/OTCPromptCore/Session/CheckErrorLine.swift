/// The first line a `--check` command writes to stderr: kept as it arrives, bounded, and made safe
/// to show and speak; then, when the check rejects the code, what of it may be said.
///
/// The rest of stderr is read and dropped, so a chatty command never blocks on a full pipe.
public struct CheckErrorLine: Sendable {
    /// A bound on memory, well past the 200 characters that are said: a masked code is looked for in
    /// the line before it is cut (`sayable`), so no piece of it survives the cut.
    public static let limit = 4096

    private var bytes: [UInt8] = []
    private var lineEnded = false

    public init() {}

    /// Takes the next bytes of stderr; everything after the first line with words is dropped.
    public mutating func append<Bytes: Collection>(_ chunk: Bytes) where Bytes.Element == UInt8 {
        guard !lineEnded else { return }
        for byte in chunk {
            if byte == UInt8(ascii: "\n") {
                // Blank leading lines say nothing; wait for one with words.
                if text(of: bytes).isEmpty {
                    bytes.removeAll()
                    continue
                }
                lineEnded = true
                return
            }
            if bytes.count < Self.limit { bytes.append(byte) }
        }
    }

    /// The line made visible (`UntrustedText`: no escape sequence reaches the terminal raw), without surrounding blanks;
    /// nil when there is none.
    public var line: String? {
        let text = text(of: bytes)
        return text.isEmpty ? nil : text
    }

    private func text(of bytes: [UInt8]) -> String {
        var text = Substring(UntrustedText.visible(String(decoding: bytes, as: UTF8.self)))
        // A line cut inside a character ends in U+FFFD: drop it rather than speak "replacement character".
        while let last = text.last, last.isWhitespace || last == "\u{FFFD}" { text.removeLast() }
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        return String(text)
    }

    /// `line` trimmed and cut to `PromptSession.errorLineLimit`; nil when empty, or when `mask` is
    /// set and the line repeats the code (a check that echoes what it got must not leak it).
    public static func sayable(_ line: String?, code: String, mask: Bool) -> String? {
        guard let line else { return nil }
        if mask && mentions(code, in: line) { return nil }
        let trimmed = String(line.droppingOuterWhitespace().prefix(PromptSession.errorLineLimit))
        return trimmed.isEmpty ? nil : trimmed
    }

    /// How long a piece of the code may appear in a line under `--mask`: any run of this many of its
    /// characters in order is a leak ("bad 987" of 987654), as is the whole of a shorter code.
    static let leakingRun = 3

    /// Whether `line` holds a run of `leakingRun` of the code's characters in order. Both are folded
    /// first: case, full-width forms and digits of any script (٩٨٧, ９８７, 𝟗𝟖𝟕 are 987); then compared
    /// as they are, without the blanks and separators a command puts between characters ("985 391",
    /// "985-391"), and with letters and digits only.
    static func mentions(_ code: String, in line: String) -> Bool {
        let code = folded(code)
        let line = folded(line)
        let forms: [(Character) -> Bool] = [
            { _ in true }, { !$0.isWhitespace && !"-._,".contains($0) }, { $0.isLetter || $0.isNumber },
        ]
        return forms.contains { keep in
            let codeForm = Array(code.filter(keep))
            let lineForm = line.filter(keep)
            guard !codeForm.isEmpty else { return false }
            let run = min(leakingRun, codeForm.count)
            return (0...(codeForm.count - run)).contains { lineForm.contains(text: String(codeForm[$0..<($0 + run)])) }
        }
    }

    /// Lower case; full-width ASCII as ASCII; a decimal digit of any script as its ASCII digit.
    static func folded(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.lowercased().unicodeScalars {
            if scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue,
                let digit = Unicode.Scalar(UInt32(0x30 + Int(value)))
            {
                result.append(digit)
            } else if (0xFF01...0xFF5E).contains(scalar.value), let ascii = Unicode.Scalar(scalar.value - 0xFEE0) {
                result.append(contentsOf: String(ascii).lowercased().unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
