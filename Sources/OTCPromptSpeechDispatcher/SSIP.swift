// SPDX-License-Identifier: GPL-3.0-or-later
import OTCPromptCore

/// The Speech Synthesis Interface Protocol as bytes: commands out, replies in. Pure: the socket
/// is `OTCPromptHost.LocalSocket`'s.
public enum SSIP {
    /// One command line ending in CRLF. Line breaks inside `words` become spaces, so no value
    /// (a client name, a voice) can ever start a second command.
    public static func command(_ words: String...) -> [UInt8] {
        let line = words.joined(separator: " ").map { $0 == "\r" || $0 == "\n" || $0 == "\r\n" ? " " : $0 }
        return Array(String(line).utf8) + [13, 10]
    }

    /// A message's data, as sent after `SPEAK`: each line ends in CRLF, a line that starts with
    /// "." gets a second one (SSIP's dot-escaping, as in SMTP), and the block ends with ".".
    public static func data(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            if line.first == "." { bytes.append(UInt8(ascii: ".")) }
            bytes += Array(line.utf8) + [13, 10]
        }
        return bytes + Array(".\r\n".utf8)
    }

    /// What speech-dispatcher is sent for `announcement`: SSML (with `SSML_MODE on`), built from
    /// its segments by the same `SpokenText` the espeak-ng backend uses, so every character of a
    /// code is said by its name and digits one by one (the espeak-ng module ignores SSIP's
    /// `SPELLING`). Every segment is scrubbed first: no line break can end the data block.
    public static func text(of announcement: Announcement) -> String {
        SpokenText.ssml(announcement.said.mapStrings(UntrustedText.visible))
    }

    /// SSIP's message priorities; see docs/architecture.md for why the prompt uses `important`.
    public enum Priority: String, Sendable {
        case important, message, text, notification, progress
    }

    /// SSIP's rate (-100...100) for `wordsPerMinute` (80...450): the inverse of the espeak-ng
    /// module's mapping with its shipped defaults (EspeakMinRate 80, NormalRate 170, MaxRate 449),
    /// so `--rate 300` sounds as fast through speech-dispatcher's espeak-ng as from espeak-ng itself.
    public static func rate(wordsPerMinute: Int) -> Int {
        let (minimum, normal, maximum) = (80, 170, 449)
        let scaled: Double =
            wordsPerMinute < normal
            ? Double(wordsPerMinute - normal) * 100 / Double(normal - minimum)
            : Double(wordsPerMinute - normal) * 100 / Double(maximum - normal)
        return min(100, max(-100, Int(scaled.rounded())))
    }
}

/// One complete reply or event from the server: "NNN-line" continuations then "NNN text".
public struct SSIPReply: Equatable, Sendable {
    public var code: Int
    /// The text of each line after "NNN-" or "NNN ", in order; the last is the status message.
    public var lines: [String]

    public init(code: Int, lines: [String]) {
        self.code = code
        self.lines = lines
    }

    /// 2xx: the command was done.
    public var isSuccess: Bool { (200..<300).contains(code) }
    /// 7xx: an event the server sends on its own (701 begin, 702 end, 703 cancelled, ...).
    public var isEvent: Bool { (700..<800).contains(code) }
}

/// A malformed line from the server: not "NNN-" or "NNN " (it is not speaking SSIP).
public struct SSIPProtocolError: Error, Equatable, Sendable {
    public var line: String
}

/// Cuts the server's byte stream into replies; bytes may arrive split anywhere.
public struct SSIPReplyReader: Sendable {
    private var pending: [UInt8] = []
    private var continuation: [String] = []

    public init() {}

    /// Adds bytes as they arrive.
    public mutating func feed(_ bytes: [UInt8]) {
        pending += bytes
    }

    /// The next complete reply, or nil until more bytes arrive.
    public mutating func next() throws(SSIPProtocolError) -> SSIPReply? {
        while let newline = pending.firstIndex(of: 10) {
            var lineBytes = pending[..<newline]
            pending.removeSubrange(...newline)
            if lineBytes.last == 13 { lineBytes = lineBytes.dropLast() }
            let line = String(decoding: lineBytes, as: UTF8.self)
            let characters = Array(line)
            guard characters.count >= 4, let code = Int(String(characters[0..<3])),
                characters[3] == "-" || characters[3] == " "
            else { throw SSIPProtocolError(line: line) }
            continuation.append(String(characters[4...]))
            if characters[3] == " " {
                defer { continuation = [] }
                return SSIPReply(code: code, lines: continuation)
            }
        }
        return nil
    }
}
