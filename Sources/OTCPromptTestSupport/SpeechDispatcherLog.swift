import Foundation

/// speech-dispatcher's own log at `LogLevel 5` (`PrivateSpeechDispatcher.start(logLevel:)`), read as evidence of who
/// cancelled whom: each client's name by its descriptor, and every reply and event the server sent it (225 queued,
/// 701 begin, 702 end, 703 cancelled) with the message's id and the server's time.
public struct SpeechDispatcherLog: Sendable {
    public struct Reply: Equatable, Sendable {
        /// Seconds since midnight, the server's clock.
        public var time: Double
        /// The client's descriptor on the server.
        public var client: Int
        public var code: Int
        public var message: Int
    }

    /// Client names (`SET self CLIENT_NAME`) by descriptor.
    public private(set) var clients: [Int: String] = [:]
    public private(set) var replies: [Reply] = []
    /// Each queued message's text as the server took it (after its own symbol translation), by message id.
    public private(set) var texts: [Int: String] = [:]

    public init(path: String) {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        var time = 0.0
        // The log's stamps are times of day, written in order: one that falls back by more than half a day passed
        // midnight (a CI run at 00:00 compared 23:59:56 with 00:00:04 the other way round).
        var midnights = 0.0
        var queued: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("["), let stamp = Self.time(line) {
                if stamp + midnights * 86_400 < time - 43_200 { midnights += 1 }
                time = stamp + midnights * 86_400
            }
            guard let marker = line.range(of: "speechd:") else { continue }
            let rest = line[marker.upperBound...].drop { $0 == " " }
            if rest.hasPrefix("Queueing message |") {
                let body = rest.dropFirst("Queueing message |".count)
                queued = String(body[..<(body.range(of: "| with priority")?.lowerBound ?? body.endIndex)])
                continue
            }
            guard let colon = rest.firstIndex(of: ":"), let client = Int(rest[..<colon]) else { continue }
            let after = rest[rest.index(after: colon)...]
            if after.hasPrefix("DATA:|SET self CLIENT_NAME ") {
                clients[client] = String(
                    after.dropFirst("DATA:|SET self CLIENT_NAME ".count).prefix { !$0.isNewline && $0 != "|" })
            } else if after.hasPrefix("REPLY:|"), let reply = Self.reply(after.dropFirst("REPLY:|".count)) {
                replies.append(Reply(time: time, client: client, code: reply.code, message: reply.id))
                if reply.code == 225, let text = queued {
                    texts[reply.id] = text
                    queued = nil
                }
            }
        }
    }

    /// The descriptor of the client whose name contains `name` (the last to take it).
    public func client(named name: String) -> Int? {
        clients.filter { $0.value.contains(name) }.keys.max()
    }

    /// What `client` was told, in order.
    public func replies(to client: Int) -> [Reply] { replies.filter { $0.client == client } }

    /// The first message of `client` whose text contains `text`.
    public func message(of client: Int, containing text: String) -> Int? {
        replies(to: client).first { $0.code == 225 && texts[$0.message]?.contains(text) == true }?.message
    }

    /// The time `message` got `code` (the first), nil when it never did.
    public func time(of code: Int, for message: Int) -> Double? {
        replies.first { $0.code == code && $0.message == message }?.time
    }

    /// "[Sat Nov 28 11:28:37 2026 : 265373]" → seconds since that day's midnight.
    private static func time(_ line: Substring) -> Double? {
        guard let close = line.firstIndex(of: "]") else { return nil }
        let parts = line[line.index(after: line.startIndex)..<close].split(separator: " ")
        guard parts.count >= 7, let micro = Double(parts[6]) else { return nil }
        let clock = parts[3].split(separator: ":").compactMap { Double($0) }
        guard clock.count == 3 else { return nil }
        return clock[0] * 3600 + clock[1] * 60 + clock[2] + micro / 1_000_000
    }

    /// "225-47" (the first line of a reply whose lines the log keeps together) → (225, 47).
    private static func reply(_ text: Substring) -> (code: Int, id: Int)? {
        let parts = text.prefix { $0 != "|" && $0 != "\n" }.split(separator: "-", maxSplits: 1)
        guard parts.count == 2, let code = Int(parts[0]), [225, 701, 702, 703].contains(code),
            let id = Int(parts[1].prefix { $0.isNumber })
        else { return nil }
        return (code, id)
    }
}
