import Foundation
import Glibc
import OTCPromptCore
import OTCPromptHost
import OTCPromptTestSupport
import Testing

@testable import OTCPromptSpeechDispatcher

/// A stand-in SSIP server that answers every command, and splits each `225` reply in two with a
/// pause between: the backend must wait for the rest, never take half a reply for a dead server.
final class ScriptedSSIPServer: @unchecked Sendable {
    let path = NSTemporaryDirectory() + "/otc-ssip-\(UUID().uuidString.prefix(8)).sock"
    private let listener: Int32

    init(pauseInsideReplies: useconds_t) throws {
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(listener, 1) == 0 else { throw POSIXError(.EADDRINUSE) }
        Thread.detachNewThread { [listener] in
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
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
                        reply("225-\(message)\r\n")
                        usleep(pauseInsideReplies)
                        reply("225 OK MESSAGE QUEUED\r\n")
                    } else if line == "SPEAK" {
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
    }

    deinit {
        close(listener)
        unlink(path)
    }
}

@Suite struct ScriptedServerTests {
    @Test func aReplyArrivingInTwoPiecesIsWaitedForNotTakenForADeadServer() throws {
        let server = try ScriptedSSIPServer(pauseInsideReplies: 80_000)
        let backend = try SpeechDispatcherBackend(
            options: SpeechDispatcherOptions(), environment: ["SPEECHD_ADDRESS": "unix_socket:\(server.path)"],
            user: UserAccount(name: "ana", homeDirectory: "/nonexistent"))
        backend.speak(Announcement(.prompt, "Verification code"))
        usleep(40_000)  // "225-1" has arrived, "225 OK ..." has not
        backend.speak(Announcement(.digit, "9"))
        usleep(40_000)
        backend.speak(Announcement(.digit, "8"))
        backend.finish(timeout: .seconds(2))
        #expect(backend.failure == nil)
        #expect(backend.takeUnsaid().isEmpty)
    }
}
