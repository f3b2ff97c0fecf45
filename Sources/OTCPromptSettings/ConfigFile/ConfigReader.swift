// No imports: the fuzzer (Fuzz/run.sh) compiles this folder on its own.

/// A value written in the configuration file.
public enum ConfigValue: Equatable, Sendable {
    case string(String)
    case integer(Int)
    case boolean(Bool)
}

/// One `key = value` line of the configuration file.
public struct ConfigEntry: Equatable, Sendable {
    public var key: String
    public var value: ConfigValue
    /// 1-based.
    public var line: Int
}

/// A line the reader could not take, and why, in words that fit after "file:line: ".
public struct ConfigSyntaxProblem: Equatable, Sendable {
    public var line: Int
    public var message: String
}

/// Reads the configuration format: a strict subset of TOML, one `key = value` per line.
///
/// Blank lines and `#` comments; keys bare (`A-Z a-z 0-9 _ -`) or quoted; values a basic `"string"` (with TOML's
/// escapes), a literal `'string'`, an integer (`320`, `+3_20`, `0x140`, `0o500`, `0b101000000`), `true` or
/// `false`. Anything else is reported at its line and that line is skipped; a table header or a multi-line string
/// also ends the reading, because the lines after it would mean something else in TOML. One pass: linear in the
/// size of the file.
public enum ConfigReader {
    public static func read(_ text: String) -> (entries: [ConfigEntry], problems: [ConfigSyntaxProblem]) {
        var entries: [ConfigEntry] = []
        var problems: [ConfigSyntaxProblem] = []
        var firstLine: [String: Int] = [:]
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var start = 0
        var number = 0
        while start < bytes.count || (start == 0 && number == 0 && !bytes.isEmpty) {
            number += 1
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            var lineEnd = end
            if lineEnd > start, bytes[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
            var line = LineScanner(bytes: bytes, position: start, end: lineEnd)
            switch line.entry() {
            case .blank:
                break
            case .entry(let key, let value):
                if let first = firstLine[key] {
                    problems.append(
                        ConfigSyntaxProblem(
                            line: number,
                            message: "\(excerpt(key)) is already set on line \(first); this line is ignored"))
                } else {
                    firstLine[key] = number
                    entries.append(ConfigEntry(key: key, value: value, line: number))
                }
            case .problem(let message):
                problems.append(ConfigSyntaxProblem(line: number, message: message + "; this line is ignored"))
            case .stop(let message):
                problems.append(
                    ConfigSyntaxProblem(line: number, message: message + "; the rest of the file is ignored"))
                return (entries, problems)
            }
            start = end + 1
        }
        return (entries, problems)
    }
}

/// What one line holds.
enum ConfigLine: Equatable {
    case blank
    case entry(key: String, value: ConfigValue)
    /// The line is skipped.
    case problem(String)
    /// The line and everything after it are skipped.
    case stop(String)
}

/// Reads one line's bytes, left to right, once.
struct LineScanner {
    let bytes: [UInt8]
    var position: Int
    let end: Int

    mutating func entry() -> ConfigLine {
        skipBlanks()
        guard let first = current, first != UInt8(ascii: "#") else { return .blank }
        if first == UInt8(ascii: "[") {
            return .stop("tables ([…]) are not part of the format: write key = value lines only")
        }
        let key: String
        switch readKey() {
        case .success(let name): key = name
        case .failure(let failure): return failure.line
        }
        skipBlanks()
        if current == UInt8(ascii: ".") { return .problem("dotted keys such as \(excerpt(key)).x are not supported") }
        guard current == UInt8(ascii: "=") else { return .problem("expected = after \(excerpt(key))") }
        position += 1
        skipBlanks()
        let value: ConfigValue
        switch readValue(key: key) {
        case .success(let read): value = read
        case .failure(let failure): return failure.line
        }
        skipBlanks()
        if let next = current, next != UInt8(ascii: "#") {
            return .problem("unexpected \(excerpt(rest())) after the value of \(excerpt(key))")
        }
        if let control = firstControlCharacter() {
            return .problem("control character U+\(hex(control)) in a comment")
        }
        return .entry(key: key, value: value)
    }

    private mutating func readKey() -> Result<String, LineFailure> {
        guard let first = current else { return .failure(LineFailure(.problem("expected a key"))) }
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            switch readString() {
            case .success(let text): return .success(text)
            case .failure(let failure):
                if case .stop = failure.line {
                    return .failure(LineFailure(.problem("a key cannot be a multi-line string")))
                }
                return .failure(failure)
            }
        }
        let start = position
        while let byte = current, isBareKeyByte(byte) { position += 1 }
        guard position > start else {
            return .failure(LineFailure(.problem("unexpected \(excerpt(rest())) where a key should be")))
        }
        return .success(String(decoding: bytes[start..<position], as: UTF8.self))
    }
}

/// Why a key or value could not be read, as the line's outcome.
struct LineFailure: Error {
    var line: ConfigLine
    init(_ line: ConfigLine) { self.line = line }
}
