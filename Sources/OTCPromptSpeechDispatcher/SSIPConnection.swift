// SPDX-License-Identifier: GPL-3.0-or-later
import OTCPromptHost

/// One SSIP session on the server's socket: bytes out, replies and events in, each wait bounded.
final class SSIPConnection: @unchecked Sendable {
    let socket: LocalSocket
    private var reader = SSIPReplyReader()

    private init(socket: LocalSocket) {
        self.socket = socket
    }

    /// Connects to `address`; when nothing answers and `options.autospawn` is set, starts the
    /// server as libspeechd does (`speech-dispatcher --spawn`, or `$SPEECHD_CMD`) and tries again
    /// until `options.spawnTimeout`.
    static func connect(
        to address: SpeechDispatcherAddress, options: SpeechDispatcherOptions, environment: [String: String]
    ) throws(SpeechDispatcherError) -> SSIPConnection {
        let path: String
        switch address {
        case .unixSocket(let socketPath): path = socketPath
        case .unsupported(let method): throw .unsupportedAddress(method: method)
        }
        // Another user's socket, directory or server never hears a code, and is never replaced by one started here.
        let uid = UserAccount.currentUID
        if let why = LocalSocket.foreignOwner(of: path, uid: uid) { throw .notYours(path: path, why: why) }
        do {
            return try owned(LocalSocket.connect(path: path, timeout: options.replyTimeout), uid: uid)
        } catch .unreachable(let error) {
            guard options.autospawn else { throw .unreachable(error) }
        }
        let deadline = MonotonicInstant.now + options.spawnTimeout
        let program = environment["SPEECHD_CMD"].flatMap { $0.isEmpty ? nil : $0 } ?? "speech-dispatcher"
        do throws(HostError) {
            let status = try HelperProgram.run(
                program, ["--spawn", "--communication-method", "unix_socket", "--socket-path", path],
                timeout: options.spawnTimeout)
            if status != 0 {
                throw HostError.program(path: program, reason: "autospawn refused (exit status \(status))")
            }
        } catch {
            throw .unreachable(error)
        }
        let left = MonotonicInstant.now.duration(to: deadline)
        return try owned(LocalSocket.connect(path: path, timeout: left, waitingForListener: true), uid: uid)
    }

    /// The connection when the server behind it runs as `uid` (or as root, who could read the code anyway).
    private static func owned(
        _ connect: @autoclosure () throws(HostError) -> LocalSocket, uid: UInt32
    ) throws(SpeechDispatcherError) -> SSIPConnection {
        let socket: LocalSocket
        do { socket = try connect() } catch { throw .unreachable(error) }
        if let peer = socket.peerUID, peer != uid, peer != 0 {
            socket.close()
            throw .notYours(path: socket.path, why: "the server runs as uid \(peer), not as you (uid \(uid))")
        }
        return SSIPConnection(socket: socket)
    }

    /// Sends `bytes`, waiting at most `timeout` for room in the socket.
    func send(_ bytes: [UInt8], timeout: Duration) throws(SpeechDispatcherError) {
        do { try socket.send(bytes, timeout: timeout) } catch { throw .unreachable(error) }
    }

    /// The next reply or event, waiting at most `timeout` for each read.
    func next(timeout: Duration) throws(SpeechDispatcherError) -> SSIPReply {
        while true {
            do {
                if let reply = try reader.next() { return reply }
            } catch {
                throw .notSSIP(line: error.line)
            }
            do { reader.feed(try socket.receive(timeout: timeout)) } catch { throw .unreachable(error) }
        }
    }

    /// The next complete reply or event among the bytes that have already arrived; nil when the
    /// rest of it has not. Never waits.
    func nextArrived() throws(SpeechDispatcherError) -> SSIPReply? {
        while true {
            do {
                if let reply = try reader.next() { return reply }
            } catch {
                throw .notSSIP(line: error.line)
            }
            guard socket.hasInput else { return nil }
            do { reader.feed(try socket.receive(timeout: .zero)) } catch { throw .unreachable(error) }
        }
    }

    /// Sends `commands` in one write and returns their replies in order (events in between are
    /// dropped: none are asked for yet); a reply that is not 2xx is refused.
    func request(_ commands: [[UInt8]], timeout: Duration) throws(SpeechDispatcherError) -> [SSIPReply] {
        try send(commands.flatMap { $0 }, timeout: timeout)
        var replies: [SSIPReply] = []
        for command in commands {
            var reply = try next(timeout: timeout)
            while reply.isEvent { reply = try next(timeout: timeout) }
            guard reply.isSuccess else {
                let line = String(decoding: command.dropLast(2), as: UTF8.self)
                throw .refused(command: line, reply: "\(reply.code) \(reply.lines.last ?? "")")
            }
            replies.append(reply)
        }
        return replies
    }
}
