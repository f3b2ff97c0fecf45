// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import Synchronization
import Testing

@testable import OTCPromptSystem

/// What threads hand each other through the door: the wake-up pipe a `poll` watches, and the monotonic condition
/// variable the speech threads and the braille mailbox wait on.
@Suite struct ThreadHandOverTests {
    @Test func aWakeUpPipeNeverBlocksAndIsNotInherited() throws {
        let ends = try SystemCall.wakeUpPipe()
        defer { for end in [ends.read, ends.write] { close(end) } }
        for end in [ends.read, ends.write] {
            #expect(fcntl(end, F_GETFD) & FD_CLOEXEC != 0)
            #expect(fcntl(end, F_GETFL) & O_NONBLOCK != 0)
        }
        var byte: UInt8 = 0
        #expect(read(ends.read, &byte, 1) == -1 && errno == EAGAIN, "an empty pipe answers at once")
        byte = 7
        #expect(write(ends.write, &byte, 1) == 1)
        byte = 0
        #expect(read(ends.read, &byte, 1) == 1 && byte == 7)
    }

    @Test func aWakeUpPipeThatCannotBeMadeSaysWhichCallFailed() {
        #expect(throws: SystemCallError(.ioError, call: "pipe")) {
            try SystemCallMock.forcing(.ioError, on: "pipe") { try SystemCall.wakeUpPipe() }
        }
    }

    @Test func aWaitWhoseDeadlineHasPassedReturnsAtOnce() {
        let lock = ConditionLock()
        let woken = lock.withLock { lock.wait(until: MonotonicInstant.now + .milliseconds(-1)) }
        #expect(!woken)
    }

    @Test func aBroadcastWakesAWaiterBeforeItsDeadline() throws {
        let lock = ConditionLock()
        let done = Atomic(false)
        try DetachedThread.start {
            lock.withLock {
                done.store(true, ordering: .sequentiallyConsistent)
                lock.broadcast()
            }
        }
        let deadline = MonotonicInstant.now + .seconds(30)
        let finished = lock.withLock {
            while !done.load(ordering: .sequentiallyConsistent) {
                if !lock.wait(until: deadline) { break }
            }
            return done.load(ordering: .sequentiallyConsistent)
        }
        #expect(finished, "the waiter saw the other thread's change before the deadline")
        #expect(MonotonicInstant.now < deadline)
    }
}
