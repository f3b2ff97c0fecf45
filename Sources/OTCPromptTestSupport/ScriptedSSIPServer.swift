import Foundation
import Glibc

/// A stand-in SSIP server that answers every command of each connection, as slowly or as raggedly as a test asks:
/// `pauseBeforeReplies` before each reply (a loaded server, a voice slow to start), `pauseInsideReplies` between
/// the two halves of each `225` reply (the client must wait for the rest, never take half a reply for a dead
/// server).
public final class ScriptedSSIPServer: @unchecked Sendable {
    public let path = NSTemporaryDirectory() + "/otc-ssip-\(UUID().uuidString.prefix(8)).sock"
    private let listener: Int32

    public init(pauseInsideReplies: useconds_t = 0, pauseBeforeReplies: useconds_t = 0) throws {
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(listener, 4) == 0 else { throw POSIXError(.EADDRINUSE) }
        Thread.detachNewThread { [listener] in
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                Thread.detachNewThread {
                    Self.serve(client, pauseInsideReplies: pauseInsideReplies, pauseBeforeReplies: pauseBeforeReplies)
                }
            }
        }
    }

    private static func serve(_ client: Int32, pauseInsideReplies: useconds_t, pauseBeforeReplies: useconds_t) {
        defer { close(client) }
        var pending: [UInt8] = []
        var inData = false
        var message = 0
        var buffer = [UInt8](repeating: 0, count: 4096)
        func reply(_ text: String) { _ = send(client, text, text.utf8.count, Int32(MSG_NOSIGNAL)) }
        while true {
            var entry = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 10_000) > 0 else { return }
            let count = read(client, &buffer, buffer.count)
            if count <= 0 { return }
            pending += buffer[0..<count]
            while let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<newline], as: UTF8.self).trimmingCharacters(in: .newlines)
                pending.removeSubrange(...newline)
                if inData {
                    guard line == "." else { continue }
                    inData = false
                    message += 1
                    usleep(pauseBeforeReplies)
                    reply("225-\(message)\r\n")
                    usleep(pauseInsideReplies)
                    reply("225 OK MESSAGE QUEUED\r\n")
                    continue
                }
                usleep(pauseBeforeReplies)
                if line == "SPEAK" {
                    inData = true
                    reply("230 OK RECEIVING DATA\r\n")
                } else if line == "CANCEL self" {
                    reply("213 OK CANCELED\r\n")
                } else {
                    reply("200 OK\r\n")
                }
            }
        }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        unlink(path)
    }
}
