import Foundation
import Glibc
import OTCPromptCore
import Testing

@testable import OTCPromptHost

/// The agent's answer, one datagram to the querier's socket, on real sockets of the test's own: a querier that stops
/// reading costs the agent at most `AskDirectory.answerPatience`, never the rest of its life.
@Suite struct AskDirectorySendTests {
    /// Fills the receive queue of the socket at `path` from a socket of its own, without waiting: the next datagram
    /// sent there would wait for room. Returns how many were queued.
    private func fill(_ path: String) throws -> Int {
        let filler = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(filler) }
        let address = try #require(UnixSocketAddress(path: path))
        try #require(address.withSocketAddress { connect(filler, $0, $1) } == 0)
        var queued = 0
        var byte: UInt8 = 0x2D
        while send(filler, &byte, 1, Int32(MSG_DONTWAIT)) == 1 { queued += 1 }
        return queued
    }

    @Test func anAnswerReachesAQuerierThatReads() throws {
        let querier = try BoundDatagramSocket(named: "sck.querier")
        defer { querier.remove() }
        #expect(AskDirectory.send(.password(SecretBytes(copying: "by ear")), to: querier.path) == nil)
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = recv(querier.descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        #expect(count > 0 && String(decoding: buffer[..<count], as: UTF8.self) == "+by ear")
    }

    @Test func aQuerierThatStopsReadingCostsAtMostThePatienceAndTheAnswerIsNotSent() throws {
        let querier = try BoundDatagramSocket(named: "sck.querier")
        defer { querier.remove() }
        #expect(try fill(querier.path) > 0)
        // On a thread of its own, waited for with a deadline: a send that waits for the querier would hold the test.
        let outcome = SendOutcome()
        try DetachedThread.start {
            outcome.end(AskDirectory.send(.yes, to: querier.path, patience: .milliseconds(200)))
        }
        let ended = outcome.wait(until: MonotonicInstant.now + .seconds(10))
        // Should it still wait, the querier's close ends that wait (ECONNREFUSED) before the test's files go.
        #expect(ended, "the answer waited for a querier that never reads")
        #expect(outcome.error == .some(.timedOut))
    }

    @Test func aQuerierGoneIsSaidAtOnce() throws {
        let querier = try BoundDatagramSocket(named: "sck.querier")
        querier.remove()
        #expect(AskDirectory.send(.cancel, to: querier.path) != nil)
    }
}

/// What a send on another thread ended with, once it has.
private final class SendOutcome: @unchecked Sendable {
    private let lock = ConditionLock()
    private var ended: Errno??

    var error: Errno?? { lock.withLock { ended } }

    func end(_ error: Errno?) {
        lock.withLock {
            ended = .some(error)
            lock.broadcast()
        }
    }

    /// Whether the send ended by `deadline`.
    func wait(until deadline: MonotonicInstant) -> Bool {
        lock.withLock {
            while ended == nil { if !lock.wait(until: deadline) { return ended != nil } }
            return true
        }
    }
}
