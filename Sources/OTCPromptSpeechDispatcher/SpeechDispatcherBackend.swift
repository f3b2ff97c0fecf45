// SPDX-License-Identifier: GPL-3.0-or-later
import OTCPromptCore
import OTCPromptHost

/// Speaks through the user's running speech-dispatcher, over SSIP on its unix socket, so the
/// prompt shares the user's voice and queue with their screen reader instead of talking over it.
///
/// Everything happens on the caller's thread and nothing waits on the server while typing:
/// `speak` reads whatever replies have arrived (without waiting), then sends `CANCEL self` (only
/// while something of ours may still be speaking), `SPEAK` and the text in one write. `finish`
/// waits only until the server has accepted the last message, never for it to be played: the
/// server plays it to the end after we exit. When the server goes away or stops answering, it says so
/// (`failure`) and keeps every announcement the server has not accepted, and all later ones, for
/// `SpeechFallback` to show as text.
public final class SpeechDispatcherBackend: FallibleSpeechBackend {
    /// `important`: our echo cuts a screen reader's `message` instead of waiting behind it, and is
    /// never dropped or delayed as `notification`/`progress` are (docs/architecture.md, measured).
    public static let priority: SSIP.Priority = .important
    /// The opening's: `text` waits for what a screen reader is reading at `message` (Fenrir's, and the server's
    /// default: the lines printed just before the prompt) to end, and gives way to the screen reader's next message
    /// instead of holding it back; it is sent again when that cut it (`openingRetryLimit`). Not `progress`: a
    /// progress message cut before it began is played later at `message`, holding the screen reader back for its
    /// whole length. Measured with speech-dispatcher 0.11.4 (docs/architecture.md).
    public static let openingPriority: SSIP.Priority = .text
    /// How long after it was first sent an opening a screen reader cut is sent again, to follow that reading.
    public static let openingRetryLimit: Duration = .seconds(10)

    private let connection: SSIPConnection
    private let replyTimeout: Duration
    /// The replies still owed by the server, oldest first.
    private var expected: [Expectation] = []
    /// Ours, queued or speaking (message ids from `225-ID`), until their END or CANCELED event.
    private var speaking: Set<Int> = []
    /// Events that arrived before their message's `225` reply.
    private var endedEarly: Set<Int> = []
    private var failed = false
    /// Once failed: what the server never accepted, and what came after.
    private var unsaid: [Announcement] = []
    /// Nothing said yet: the next announcement, if it is the prompt's opening (`.prompt`), is sent as the opening.
    private var saidNothing = true
    /// The opening while it may still be cut by a screen reader and sent again: its message id once the server
    /// gave it, and when it was first sent. Nil once it ended, or something newer of ours took its place.
    private var opening: (announcement: Announcement, id: Int?, since: MonotonicInstant)?
    /// How many times the opening was sent again (speech-dispatcher's log says by whom it was cut).
    public private(set) var openingResent = 0
    /// Announcements given, counted from 1, and how far the newest got: its message id once the server gave it,
    /// when its BEGIN and its END arrived (CLOCK_MONOTONIC ns); for the speech log's outcome lines.
    private var given: UInt64 = 0
    private var newest: (id: Int?, began: Int64?, ended: Int64?) = (nil, nil, nil)
    /// BEGIN and END events that arrived before their message's `225` reply, with when; forgotten once it came.
    private var early: [Int: (began: Int64?, ended: Int64?)] = [:]

    private enum Expectation {
        /// A command answered by one reply with nothing to keep: `CANCEL self`, `SET self PRIORITY`.
        case command
        case speak(Announcement, sent: MonotonicInstant)
        /// `number`: the announcement's count (`given`).
        case data(Announcement, sent: MonotonicInstant, number: UInt64)

        var sent: MonotonicInstant? {
            switch self {
            case .command: return nil
            case .speak(_, let sent), .data(_, let sent, _): return sent
            }
        }

        var isData: Bool {
            if case .data = self { return true }
            return false
        }
    }

    /// Connects to the user's server (starting it when `options.autospawn` says so) and opens a
    /// session: client name `<user>:otc-prompt:main`, our priority, and only the settings given.
    /// - Parameters:
    ///   - environment: for `SPEECHD_ADDRESS`, `XDG_RUNTIME_DIR`, `XDG_CACHE_HOME`, `SPEECHD_CMD`.
    ///   - user: the user's name and home (`UserAccount.current`); `$HOME` wins for the home.
    /// - Throws: `SpeechDispatcherError` when no server answers, or it refuses the opening.
    public init(
        options: SpeechDispatcherOptions, environment: [String: String], user: UserAccount
    ) throws(SpeechDispatcherError) {
        let address = SpeechDispatcherAddress.resolve(environment: environment, user: user)
        connection = try SSIPConnection.connect(to: address, options: options, environment: environment)
        replyTimeout = options.replyTimeout
        _ = try connection.request(options.openingCommands(user: user.name), timeout: options.replyTimeout)
    }

    deinit {
        connection.socket.close()
    }

    /// Whether a speech-dispatcher answers at the user's address now, and with which output module
    /// (`GET OUTPUT_MODULE`), without starting one: for the automatic choice and `--doctor`.
    public static func probe(
        environment: [String: String], user: UserAccount, timeout: Duration = .milliseconds(500)
    ) -> Result<String, SpeechDispatcherError> {
        let address = SpeechDispatcherAddress.resolve(environment: environment, user: user)
        let options = SpeechDispatcherOptions(replyTimeout: timeout)
        return Result { () throws(SpeechDispatcherError) -> String in
            let connection = try SSIPConnection.connect(to: address, options: options, environment: environment)
            defer { connection.socket.close() }
            let replies = try connection.request(
                [
                    SSIP.command("SET self CLIENT_NAME", "\(user.name):otc-prompt:probe"),
                    SSIP.command("GET OUTPUT_MODULE"),
                ],
                timeout: timeout)
            return replies[1].lines.first ?? ""
        }
    }

    public func speak(_ announcement: Announcement) {
        guard !failed else { return unsaid.append(announcement) }
        readArrivedReplies()
        if let oldest = expected.lazy.compactMap(\.sent).first, MonotonicInstant.now - oldest > replyTimeout {
            fail()
        }
        guard !failed else { return unsaid.append(announcement) }
        var bytes: [UInt8] = []
        if !speaking.isEmpty || expected.contains(where: \.isData) {
            bytes += SSIP.command("CANCEL self")
            expected.append(.command)
        }
        // Ours from now on: the opening, if still waiting or speaking, was cut by us, not by a screen reader.
        opening = nil
        if saidNothing, announcement.event == .prompt {
            opening = (announcement, nil, MonotonicInstant.now)
            bytes += message(announcement, priority: Self.openingPriority)
        } else {
            bytes += message(announcement)
        }
        saidNothing = false
        send(bytes)
    }

    /// `SPEAK` and the announcement's data, at `priority` when it is not the session's, set back after it.
    private func message(_ announcement: Announcement, priority: SSIP.Priority? = nil) -> [UInt8] {
        let now = MonotonicInstant.now
        var bytes: [UInt8] = []
        if let priority {
            bytes += SSIP.command("SET self PRIORITY", priority.rawValue)
            expected.append(.command)
        }
        bytes += SSIP.command("SPEAK") + SSIP.data(SSIP.text(of: announcement))
        given += 1
        newest = (nil, nil, nil)
        expected += [.speak(announcement, sent: now), .data(announcement, sent: now, number: given)]
        if priority != nil {
            bytes += SSIP.command("SET self PRIORITY", Self.priority.rawValue)
            expected.append(.command)
        }
        return bytes
    }

    private func send(_ bytes: [UInt8]) {
        do {
            try connection.send(bytes, timeout: .milliseconds(50))
        } catch {
            fail()
        }
    }

    /// The socket, while the opening may still need sending again (its end or cancel is news to act on), and while
    /// ours is queued or speaking: its BEGIN and END are read as they come, so the speech log says when it was heard.
    public var newsDescriptor: Int32? {
        guard !failed, opening != nil || !speaking.isEmpty || expected.contains(where: \.isData) else { return nil }
        return connection.socket.readableDescriptor
    }

    /// How far the newest announcement got, as the server's events said when they were read.
    public var progress: SpeechProgress? {
        guard !failed else { return nil }
        return SpeechProgress(number: given, began: newest.began, heardBy: newest.ended)
    }

    /// Reads what has arrived; an opening a screen reader cut is sent again, to follow that reading.
    public func takeNews() {
        guard !failed else { return }
        readArrivedReplies()
    }

    /// Returns as soon as the server has accepted every message (its `225` reply), at most
    /// `timeout` later; speech-dispatcher plays the last one to its end after the process exits.
    public func finish(timeout: Duration) {
        let deadline = MonotonicInstant.now + min(timeout, replyTimeout)
        while !failed, expected.contains(where: \.isData) {
            let left = MonotonicInstant.now.duration(to: deadline)
            guard left > .zero else {
                fail()
                break
            }
            do { process(try connection.next(timeout: left)) } catch { fail() }
        }
        if failed { return }
        connection.socket.close()
    }

    /// Silences our speech now (`CANCEL self`), for a prompt ended by a signal; waits at most
    /// the reply timeout for the server to confirm.
    public func cancel() {
        guard !failed else { return }
        do {
            try connection.send(SSIP.command("CANCEL self"), timeout: replyTimeout)
            expected.append(.command)
            let deadline = MonotonicInstant.now + replyTimeout
            while !expected.isEmpty, MonotonicInstant.now < deadline {
                process(try connection.next(timeout: MonotonicInstant.now.duration(to: deadline)))
            }
        } catch {}
        connection.socket.close()
    }

    public var failure: SpeechFailure? { failed ? .speechDispatcherStopped : nil }

    /// Whether a message of ours is still queued or speaking: until the server's END or CANCELED event for it
    /// (read now, without waiting).
    public var isSpeaking: Bool {
        guard !failed else { return false }
        readArrivedReplies()
        return !failed && (!speaking.isEmpty || expected.contains(where: \.isData))
    }

    public func takeUnsaid() -> [Announcement] {
        defer { unsaid = [] }
        return unsaid
    }

    private func readArrivedReplies() {
        do {
            while !failed, let reply = try connection.nextArrived() { process(reply) }
        } catch {
            fail()
        }
    }

    private func process(_ reply: SSIPReply) {
        if reply.isEvent {
            // 701 BEGIN, 702 END, 703 CANCELED: "7NN-msg_id", "7NN-client_id", "7NN END".
            guard (701...703).contains(reply.code), let id = reply.lines.first.flatMap({ Int($0) }) else { return }
            note(reply.code, of: id, at: MonotonicInstant.now.nanoseconds)
            if reply.code == 701 { return }
            if speaking.remove(id) == nil { endedEarly.insert(id) }
            if let opening, opening.id == id { openingEnded(cancelled: reply.code == 703) }
            return
        }
        guard !expected.isEmpty else { return }
        let expectation = expected.removeFirst()
        guard reply.isSuccess else {
            // The announcement the refused SPEAK carried was never accepted: put it back for the fallback.
            expected.insert(expectation, at: 0)
            return fail()
        }
        if case .data(let announcement, _, let number) = expectation, let id = reply.lines.first.flatMap({ Int($0) }) {
            let events = early.removeValue(forKey: id)
            if number == given { newest = (id, events?.began, events?.ended) }
            if endedEarly.remove(id) == nil {
                speaking.insert(id)
                if let opening, opening.id == nil, opening.announcement == announcement { self.opening?.id = id }
            } else if opening?.announcement == announcement {
                opening = nil
            }
        }
    }

    /// When the newest announcement began to be heard, or was heard to its end (not a cancel: it was cut); an event
    /// ahead of its message's id is kept until the id comes.
    private func note(_ code: Int, of id: Int, at time: Int64) {
        guard code != 703 else { return }
        if newest.id == id {
            if code == 701 { newest.began = newest.began ?? time } else { newest.ended = time }
        } else if !speaking.contains(id), expected.contains(where: \.isData) {
            var events = early[id] ?? (nil, nil)
            if code == 701 { events.began = events.began ?? time } else { events.ended = time }
            early[id] = events
        }
    }

    /// The opening ended; when someone else cut it (we never cancel it without dropping it first) and it is
    /// still recent, it is sent again at the opening's priority, to follow what cut it.
    private func openingEnded(cancelled: Bool) {
        guard let ended = opening else { return }
        opening = nil
        guard cancelled, MonotonicInstant.now - ended.since < Self.openingRetryLimit else { return }
        opening = (ended.announcement, nil, ended.since)
        openingResent += 1
        send(message(ended.announcement, priority: Self.openingPriority))
    }

    /// Once: stop, keeping every announcement the server has not accepted (`takeUnsaid`).
    private func fail() {
        guard !failed else { return }
        failed = true
        connection.socket.close()
        for case .data(let announcement, _, _) in expected { unsaid.append(announcement) }
        expected = []
    }
}
