import Foundation
import Glibc
import Testing

@testable import OTCPromptHost

/// The system log's line, sent to a datagram socket of the test's own in place of /dev/log: syslog(3)'s format, and
/// no wait on a log daemon that does not read.
@Suite struct SystemLogTests {
    @Test func theLineIsSyslogsAtAuthprivWarningWithTheProcessID() {
        var noon = tm()
        noon.tm_year = 126
        noon.tm_mon = 2
        noon.tm_mday = 7
        noon.tm_hour = 12
        noon.tm_isdst = -1
        let line = SystemLog.line("no terminal", at: mktime(&noon), pid: 4242)
        #expect(line == "<84>Mar  7 12:00:00 otc-prompt[4242]: no terminal")
    }

    @Test func aLineReachesTheLogSocket() throws {
        let log = try BoundDatagramSocket(named: "log")
        defer { log.remove() }
        #expect(SystemLog.send("watching again", to: log.path))
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = recv(log.descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        let line = count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
        #expect(line.hasPrefix("<84>") && line.hasSuffix(" otc-prompt[\(getpid())]: watching again"), "\(line)")
    }

    /// A journal that is stuck or behind: its queue full, the line is lost at once, and nothing waits for room.
    @Test func aLogDaemonThatDoesNotReadLosesTheLineAndHoldsNothing() throws {
        let log = try BoundDatagramSocket(named: "log")
        defer { log.remove() }
        let filler = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(filler) }
        let address = try #require(UnixSocketAddress(path: log.path))
        try #require(address.withSocketAddress { connect(filler, $0, $1) } == 0)
        var byte: UInt8 = 0
        var queued = 0
        while send(filler, &byte, 1, Int32(MSG_DONTWAIT)) == 1 { queued += 1 }
        #expect(queued > 0)
        #expect(!SystemLog.send("lost", to: log.path))
    }

    @Test func withoutALogDaemonNothingIsSent() {
        #expect(!SystemLog.send("nowhere", to: "/nonexistent/log"))
    }
}
