/// Reading and writing the ask file's text: systemd's ini format, one `key=value` a line.
extension AskFile {
    /// The request `bytes` hold. Lines are split at LF (a CR before it dropped), `#` and `;` begin comments,
    /// keys and values are trimmed of spaces and tabs, the last of a repeated key wins; bytes that are not UTF-8
    /// become U+FFFD (a message is scrubbed before it is shown). Only `Socket=` is required. The lines after
    /// `Message=` that are no `key=value` (systemd 252 writes a message's line breaks raw) continue it, up to
    /// `messageLineLimit` lines and `messageCharacterLimit` characters; whatever is left out is noted
    /// (`leftSomethingOut`), and so is a line that continues nothing.
    public static func parse(_ bytes: some Collection<UInt8>) throws(AskFileError) -> AskFile {
        guard bytes.count <= maximumSize else { throw .tooLarge }
        var values: [String: String] = [:]
        var inAsk = false
        var sawAsk = false
        /// The last `Message=`'s lines, and whether the lines read now continue it.
        var message: [String]?
        var continuesMessage = false
        var leftOut = false
        // Split as bytes: a String holds CR LF as one Character, which no "\n" matches.
        for rawLine in Array(bytes).split(separator: 0x0A, omittingEmptySubsequences: false) {
            let decoded = String(decoding: rawLine.last == 0x0D ? rawLine.dropLast() : rawLine, as: UTF8.self)
            let line = trimmed(decoded[...])
            if line.first == "[" {
                inAsk = line == "[Ask]"
                sawAsk = sawAsk || inAsk
                continuesMessage = false
                continue
            }
            guard inAsk else { continue }
            if let (key, value) = keyAndValue(line) {
                values[key] = value
                continuesMessage = key == "Message"
                if continuesMessage { message = [value] }
            } else if continuesMessage {
                message?.append(String(line))
            } else if !line.isEmpty && line.first != "#" && line.first != ";" {
                leftOut = true
            }
        }
        guard sawAsk else { throw .noAskSection }
        guard let socket = values["Socket"], !socket.isEmpty else { throw .missingSocket }
        guard isPlainAbsolutePath(socket) else { throw .invalidSocket }
        var file = AskFile(pid: nil, socket: socket)
        // A number out of range takes the key's default (no process, no limit) and a line, as systemd's agents
        // ignore a value they cannot parse: the request is still asked.
        if let pid = values["PID"] {
            if let number = Int32(pid), number >= 0 {
                file.pid = number > 0 ? number : nil
            } else {
                file.problems.append(outOfRange("PID", pid, taken: "no process is watched"))
            }
        }
        if let notAfter = values["NotAfter"] {
            if let number = UInt64(notAfter) {
                file.notAfter = number > 0 ? number : nil
            } else {
                file.problems.append(outOfRange("NotAfter", notAfter, taken: "no time limit"))
            }
        }
        if let kind = values["X-OTC-Kind"] {
            guard let known = Kind(rawValue: kind) else { throw .invalidValue(key: "X-OTC-Kind") }
            file.kind = known
        }
        file.acceptCached = isTrue(values["AcceptCached"])
        file.echo = isTrue(values["Echo"])
        file.silent = isTrue(values["Silent"])
        if let message {
            let kept = boundedMessage(message)
            file.message = nonEmpty(kept.lines.map(unescaped).joined(separator: "\n"))
            leftOut = leftOut || kept.leftOut
        }
        file.leftSomethingOut = leftOut
        file.poster = values["X-OTC-Poster"].flatMap(Poster.init)
        file.icon = values["Icon"].flatMap(nonEmpty)
        file.id = values["Id"].flatMap(nonEmpty)
        file.okLabel = values["X-OTC-OK"].map(unescaped).flatMap(nonEmpty)
        file.notOKLabel = values["X-OTC-NotOK"].map(unescaped).flatMap(nonEmpty)
        file.cancelLabel = values["X-OTC-Cancel"].map(unescaped).flatMap(nonEmpty)
        return file
    }

    /// The file's text, as systemd's `ask_password_agent` writes it, with the `X-OTC-` keys after; texts are
    /// C-escaped onto one line. A querier writes it to a temporary name and renames it to `ask.*`, so an agent
    /// never reads half of it.
    public func rendered() -> String {
        var text = "[Ask]\n"
        text += "PID=\(pid ?? 0)\n"
        text += "Socket=\(socket)\n"
        text += "AcceptCached=\(acceptCached ? 1 : 0)\n"
        text += "Echo=\(echo ? 1 : 0)\n"
        text += "NotAfter=\(notAfter ?? 0)\n"
        text += "Silent=\(silent ? 1 : 0)\n"
        if let message { text += "Message=\(Self.escaped(message))\n" }
        if let icon { text += "Icon=\(Self.escaped(icon))\n" }
        if let id { text += "Id=\(Self.escaped(id))\n" }
        if kind != .password { text += "X-OTC-Kind=\(kind.rawValue)\n" }
        if let okLabel { text += "X-OTC-OK=\(Self.escaped(okLabel))\n" }
        if let notOKLabel { text += "X-OTC-NotOK=\(Self.escaped(notOKLabel))\n" }
        if let cancelLabel { text += "X-OTC-Cancel=\(Self.escaped(cancelLabel))\n" }
        if let poster { text += "X-OTC-Poster=\(poster.text)\n" }
        return text
    }

    /// `text` with backslashes and control characters C-escaped, so it stays on its line.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                result += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// C escapes undone; an escape that is not one (a lone or trailing backslash, as systemd 252 writes a raw
    /// message) is kept as written.
    static func unescaped(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var result = String.UnicodeScalarView()
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            guard scalar == "\\", let next = scalars.first else {
                result.append(scalar)
                continue
            }
            switch next {
            case "\\", "\"", "'": result.append(next)
            case "n": result.append("\n")
            case "t": result.append("\t")
            case "r": result.append("\r")
            case "x":
                let digits = String(String.UnicodeScalarView(scalars.dropFirst().prefix(2)))
                guard digits.count == 2, let value = UInt8(digits, radix: 16), value > 0 else {
                    result.append(scalar)
                    continue
                }
                result.append(Unicode.Scalar(value))
                scalars = scalars.dropFirst(2)
            default:
                result.append(scalar)
                continue
            }
            scalars = scalars.dropFirst()
        }
        return String(result)
    }

    /// "PID=abc is not a number in range; no process is watched": the value shown short and scrubbed.
    private static func outOfRange(_ key: String, _ value: String, taken: String) -> String {
        let shown = UntrustedText.visible(String(value.prefix(24))) + (value.count > 24 ? "…" : "")
        return "\(key)=\(shown) is not a number in range; \(taken)"
    }

    /// The key and value of a `key=value` line; nil for any other line (a comment, a message's own line, even one
    /// with an `=` in it when what comes before is no key's name).
    private static func keyAndValue(_ line: Substring) -> (String, String)? {
        guard let equals = line.firstIndex(of: "="), line.first != "#", line.first != ";" else { return nil }
        let key = trimmed(line[..<equals])
        let isLetter = { (scalar: Unicode.Scalar) in ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) }
        guard let first = key.unicodeScalars.first, isLetter(first),
            key.unicodeScalars.allSatisfy({ isLetter($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" })
        else { return nil }
        return (String(key), String(trimmed(line[line.index(after: equals)...])))
    }

    /// A message's lines within the limits, its trailing empty lines dropped; whether anything else was.
    private static func boundedMessage(_ lines: [String]) -> (lines: [String], leftOut: Bool) {
        var lines = lines
        while lines.last?.isEmpty == true { lines.removeLast() }
        var kept: [String] = []
        var characters = 0
        for line in lines.prefix(messageLineLimit) {
            let room = messageCharacterLimit - characters
            guard room > 0 else { return (kept, true) }
            kept.append(String(line.prefix(room)))
            characters += line.count
            if line.count > room { return (kept, true) }
        }
        return (kept, lines.count > messageLineLimit)
    }

    private static func trimmed(_ text: Substring) -> Substring {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = text.firstIndex(where: { !isBlank($0) }),
            let end = text.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return text[start...end]
    }

    private static func isTrue(_ value: String?) -> Bool {
        guard let value else { return false }
        return ["1", "yes", "y", "true", "t", "on"].contains(value.lowercased())
    }

    private static func nonEmpty(_ value: String) -> String? { value.isEmpty ? nil : value }

    /// An absolute path without `.`, `..` or empty components, control characters or bytes that were not UTF-8
    /// (read as U+FFFD, which would send the answer to another path than the one written): the one shape an answer
    /// may be sent to.
    static func isPlainAbsolutePath(_ path: String) -> Bool {
        guard path.hasPrefix("/"),
            !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{FFFD}" })
        else { return false }
        return path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).allSatisfy {
            !$0.isEmpty && $0 != "." && $0 != ".."
        }
    }
}
