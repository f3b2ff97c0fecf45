/// One request line of the Assuan protocol: a command and its argument.
public struct AssuanLine: Equatable, Sendable {
    /// The longest line libassuan accepts, its line feed included (ASSUAN_LINELENGTH is 1000 plus
    /// CR and LF).
    public static let maximumLength = 1002

    /// The command, upper-cased: libassuan matches command names without regard to case.
    public var command: String
    /// Everything after the command and the blanks that follow it, still percent-escaped.
    public var argument: String

    /// Reads one line (without its line feed; a trailing CR is dropped); nil for what libassuan
    /// skips silently: an empty line or a comment ("#…").
    /// - Throws: `AssuanError.syntax` for a line that starts with a blank.
    public static func parse(_ bytes: some Collection<UInt8>) throws(AssuanError) -> AssuanLine? {
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasSuffix("\r") { text.removeLast() }
        guard let first = text.unicodeScalars.first, first != "#" else { return nil }
        if first == " " || first == "\t" { throw .syntax("leading white-space") }
        let name = text.prefix { $0 != " " && $0 != "\t" }
        let rest = text[name.endIndex...].drop { $0 == " " || $0 == "\t" }
        return AssuanLine(command: name.uppercased(), argument: String(rest))
    }
}

/// Percent-escaping as Assuan uses it, both ways.
public enum AssuanEscaping {
    /// "%0A" → a line feed, "%25" → "%"; a "%" not followed by two hex digits stays as it is
    /// (pinentry's strcpy_escaped does the same). Invalid UTF-8 becomes U+FFFD.
    public static func decode(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hexValue(bytes[index + 1]),
                let low = hexValue(bytes[index + 2])
            {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// The bytes a data line must escape: "%", CR and LF (as libassuan's assuan_send_data).
    public static func needsEscape(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "%") || byte == 0x0D || byte == 0x0A
    }

    /// How many bytes `data` takes once escaped.
    public static func escapedCount(_ data: UnsafeBufferPointer<UInt8>) -> Int {
        data.reduce(0) { $0 + (needsEscape($1) ? 3 : 1) }
    }

    /// The longest data line, "D " and the line feed included; libassuan starts a new line
    /// before an escape that would not fit.
    public static let maximumDataLineLength = 1000

    /// Writes `data` as "D …\n" lines into `output`, escaped and split as libassuan does, and
    /// returns how many bytes were written. Pure and allocation-free, so a secret only ever
    /// lives in buffers the caller locks and wipes.
    /// - Precondition: `output` holds at least `dataLinesCapacity(for:)` bytes.
    public static func writeDataLines(
        _ data: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>
    )
        -> Int
    {
        var written = 0
        var lineLength = 0
        func put(_ byte: UInt8) {
            output[written] = byte
            written += 1
            lineLength += 1
        }
        func startLine() {
            put(UInt8(ascii: "D"))
            put(UInt8(ascii: " "))
        }
        guard !data.isEmpty else { return 0 }
        startLine()
        for byte in data {
            let width = needsEscape(byte) ? 3 : 1
            if lineLength + width + 1 > maximumDataLineLength {
                put(0x0A)
                lineLength = 0
                startLine()
            }
            if needsEscape(byte) {
                put(UInt8(ascii: "%"))
                put(hexDigit(byte >> 4))
                put(hexDigit(byte & 0x0F))
            } else {
                put(byte)
            }
        }
        put(0x0A)
        return written
    }

    /// Enough room for `writeDataLines` to write `data`.
    public static func dataLinesCapacity(for data: UnsafeBufferPointer<UInt8>) -> Int {
        let escaped = escapedCount(data)
        let lines = escaped / (maximumDataLineLength - 6) + 1
        return escaped + lines * 3
    }

    /// "D …" lines for text that is not secret (GETINFO's answers).
    public static func dataLines(_ text: String) -> [String] {
        var bytes = Array(text.utf8)
        defer { bytes.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
        return bytes.withUnsafeBufferPointer { data in
            var output = [UInt8](repeating: 0, count: dataLinesCapacity(for: data))
            let count = output.withUnsafeMutableBufferPointer { writeDataLines(data, into: $0) }
            return String(decoding: output[..<count], as: UTF8.self).split(separator: "\n").map(String.init)
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }
}
