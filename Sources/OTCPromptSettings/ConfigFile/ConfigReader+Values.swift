// No imports: the fuzzer (Fuzz/run.sh) compiles this folder on its own.

extension LineScanner {
    var current: UInt8? { position < end ? bytes[position] : nil }

    private func byte(at offset: Int) -> UInt8? { position + offset < end ? bytes[position + offset] : nil }

    mutating func skipBlanks() {
        while let byte = current, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { position += 1 }
    }

    func isBareKeyByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// The rest of the line, for messages.
    func rest() -> String { String(decoding: bytes[position..<end], as: UTF8.self) }

    /// A control character other than tab from here to the end of the line (TOML forbids them in comments).
    func firstControlCharacter() -> UInt8? {
        bytes[position..<end].first { isControl($0) }
    }

    /// Reads the value after `key =`: a string, an integer or a boolean.
    mutating func readValue(key: String) -> Result<ConfigValue, LineFailure> {
        guard let first = current else { return .failure(LineFailure(.problem("\(excerpt(key)) = has no value"))) }
        switch first {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            return readString().map(ConfigValue.string)
        case UInt8(ascii: "["):
            return .failure(LineFailure(.problem("\(excerpt(key)): lists ([…]) are not supported")))
        case UInt8(ascii: "{"):
            return .failure(LineFailure(.problem("\(excerpt(key)): inline tables ({…}) are not supported")))
        default:
            break
        }
        let start = position
        while let byte = current, byte != UInt8(ascii: " "), byte != UInt8(ascii: "\t"), byte != UInt8(ascii: "#") {
            position += 1
        }
        let word = String(decoding: bytes[start..<position], as: UTF8.self)
        if word == "true" { return .success(.boolean(true)) }
        if word == "false" { return .success(.boolean(false)) }
        let first0 = bytes[start]
        guard
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first0) || first0 == UInt8(ascii: "+")
                || first0 == UInt8(ascii: "-")
        else {
            return .failure(
                LineFailure(
                    .problem(
                        "\(excerpt(key)) = \(excerpt(word)): write \"text\" in quotes, a whole number, true or false"
                    )))
        }
        switch Self.integer(Array(bytes[start..<position])) {
        case .success(let number): return .success(.integer(number))
        case .failure(let reason):
            return .failure(LineFailure(.problem("\(excerpt(key)) = \(excerpt(word)): \(reason)")))
        }
    }

    /// A basic ("…", with escapes) or literal ('…') string on one line.
    mutating func readString() -> Result<String, LineFailure> {
        let quote = bytes[position]
        if byte(at: 1) == quote, byte(at: 2) == quote {
            return .failure(LineFailure(.stop("multi-line strings are not supported")))
        }
        position += 1
        var scalars = String.UnicodeScalarView()
        var runStart = position
        func flush(_ scanner: LineScanner) {
            scalars.append(
                contentsOf: String(decoding: scanner.bytes[runStart..<scanner.position], as: UTF8.self).unicodeScalars)
        }
        while let byte = current {
            if byte == quote {
                flush(self)
                position += 1
                return .success(String(scalars))
            }
            if isControl(byte) {
                return .failure(
                    LineFailure(.problem("control character U+\(hex(byte)) in a string; write it as an escape")))
            }
            if byte == UInt8(ascii: "\\"), quote == UInt8(ascii: "\"") {
                flush(self)
                switch readEscape() {
                case .success(let scalar): scalars.append(scalar)
                case .failure(let failure): return .failure(failure)
                }
                runStart = position
                continue
            }
            position += 1
        }
        return .failure(
            LineFailure(.problem("the string is not closed: add \(quote == UInt8(ascii: "'") ? "'" : "\"")")))
    }

    /// One escape after a backslash: \b \t \n \f \r \e \" \\ \uXXXX \UXXXXXXXX.
    private mutating func readEscape() -> Result<Unicode.Scalar, LineFailure> {
        let letter = byte(at: 1)
        position += 2
        switch letter {
        case UInt8(ascii: "b"): return .success("\u{08}")
        case UInt8(ascii: "t"): return .success("\t")
        case UInt8(ascii: "n"): return .success("\n")
        case UInt8(ascii: "f"): return .success("\u{0C}")
        case UInt8(ascii: "r"): return .success("\r")
        case UInt8(ascii: "e"): return .success("\u{1B}")
        case UInt8(ascii: "\""): return .success("\"")
        case UInt8(ascii: "\\"): return .success("\\")
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let count = letter == UInt8(ascii: "u") ? 4 : 8
            var value: UInt32 = 0
            for _ in 0..<count {
                guard let digit = current.flatMap(hexDigit) else {
                    return .failure(LineFailure(.problem("\\u needs \(count) hexadecimal digits")))
                }
                value = value << 4 | UInt32(digit)
                position += 1
            }
            guard let scalar = Unicode.Scalar(value) else {
                return .failure(LineFailure(.problem("\\u\(String(value, radix: 16)) is not a Unicode character")))
            }
            return .success(scalar)
        default:
            let shown = letter.map { $0 < 0x21 || $0 >= 0x7F ? "U+\(hex($0))" : String(UnicodeScalar($0)) } ?? ""
            return .failure(LineFailure(.problem("unknown escape \\\(shown) in a string")))
        }
    }

    /// TOML's integers: an optional sign and decimal digits (no leading zero), or 0x, 0o, 0b without a sign; `_`
    /// only between digits.
    static func integer(_ word: [UInt8]) -> Result<Int, IntegerProblem> {
        var digits = word[...]
        var negative = false
        if let sign = digits.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            negative = sign == UInt8(ascii: "-")
            digits = digits.dropFirst()
        }
        var radix = 10
        if digits.count > 2, digits.first == UInt8(ascii: "0"), word.first != UInt8(ascii: "+"),
            word.first != UInt8(ascii: "-")
        {
            switch digits[digits.startIndex + 1] {
            case UInt8(ascii: "x"): radix = 16
            case UInt8(ascii: "o"): radix = 8
            case UInt8(ascii: "b"): radix = 2
            default: break
            }
            if radix != 10 { digits = digits.dropFirst(2) }
        }
        if word.contains(where: { [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains($0) }), radix == 10
        {
            return .failure(.notWhole)
        }
        if radix == 10, digits.count > 1, digits.first == UInt8(ascii: "0") { return .failure(.leadingZero) }
        var value = 0
        var previousWasDigit = false
        for byte in digits {
            if byte == UInt8(ascii: "_") {
                guard previousWasDigit else { return .failure(.malformed) }
                previousWasDigit = false
                continue
            }
            guard let digit = hexDigit(byte), digit < radix else { return .failure(.malformed) }
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: radix)
            let (sum, overflow2) = shifted.addingReportingOverflow(negative ? -digit : digit)
            guard !overflow1, !overflow2 else { return .failure(.tooLarge) }
            value = sum
            previousWasDigit = true
        }
        guard previousWasDigit else { return .failure(.malformed) }
        return .success(value)
    }
}

/// Why a word is not an integer.
enum IntegerProblem: Error, CustomStringConvertible {
    case notWhole, leadingZero, tooLarge, malformed

    var description: String {
        switch self {
        case .notWhole: return "only whole numbers are supported"
        case .leadingZero: return "a number cannot start with 0"
        case .tooLarge: return "the number is too large"
        case .malformed: return "not a number: write \"text\" in quotes, a whole number, true or false"
        }
    }
}

private func hexDigit(_ byte: UInt8) -> Int? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(byte - UInt8(ascii: "a")) + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(byte - UInt8(ascii: "A")) + 10
    default: return nil
    }
}

/// Control characters TOML forbids outside escapes: all C0 but tab, and DEL.
func isControl(_ byte: UInt8) -> Bool { (byte < 0x20 && byte != 0x09) || byte == 0x7F }

func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return String(repeating: "0", count: 4 - digits.count) + digits
}

/// At most `limit` characters of `text`, to quote the file in a message; `ConfigFileSettings` makes the message
/// safe to show (`UntrustedText`, the program's one scrubber).
func excerpt(_ text: String, limit: Int = 60) -> String {
    text.unicodeScalars.count > limit ? String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit))) + "…" : text
}
