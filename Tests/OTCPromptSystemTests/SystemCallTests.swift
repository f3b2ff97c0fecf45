// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import Testing

@testable import OTCPromptSystem

/// The door's one EINTR rule and one error type, driven through the test-only hook that forces an errno.
@Suite struct SystemCallTests {
    @Test func anInterruptedCallIsMadeAgainAndItsResultReturned() {
        var calls = 0
        let result = SystemCallMock.forcing(.interrupted, on: "getpid", times: 1) {
            SystemCall.retrying("getpid") {
                calls += 1
                return getpid()
            }
        }
        #expect(result == getpid())
        #expect(calls == 1, "the forced EINTR stands in for the first call; the real one runs once after it")
    }

    @Test func everyInterruptionIsRetriedNotJustTheFirst() {
        var calls = 0
        let result = SystemCallMock.forcing(.interrupted, on: "getpid", times: 3) {
            SystemCall.retrying("getpid") {
                calls += 1
                return Int32(7)
            }
        }
        #expect(result == 7)
        #expect(calls == 1)
    }

    @Test func aRealEINTRFromTheCallIsRetriedToo() {
        var calls = 0
        let result = SystemCall.retrying("fake") { () -> Int32 in
            calls += 1
            if calls == 1 {
                errno = EINTR
                return -1
            }
            return 5
        }
        #expect(result == 5)
        #expect(calls == 2)
    }

    @Test func anyOtherErrnoIsReturnedAtOnceWithoutMakingTheCall() {
        var calls = 0
        let result = SystemCallMock.forcing(.badFileDescriptor, on: "close") {
            SystemCall.retrying("close") {
                calls += 1
                return Int32(0)
            }
        }
        #expect(result == -1)
        #expect(Errno.current == .badFileDescriptor)
        #expect(calls == 0)
    }

    @Test func aThrowingCallNamesTheCallAndItsErrno() {
        #expect(throws: SystemCallError(.noSuchFileOrDirectory, call: "open")) {
            try SystemCallMock.forcing(.noSuchFileOrDirectory, on: "open") {
                try SystemCall.call("open") { open("/", O_RDONLY) }
            }
        }
    }

    @Test func aForcedErrnoAppliesOnlyToTheCallItNames() throws {
        let result = try SystemCallMock.forcing(.brokenPipe, on: "write") {
            try SystemCall.call("getpid") { getpid() }
        }
        #expect(result == getpid())
    }

    @Test func aForcedErrnoEndsWithItsScope() throws {
        SystemCallMock.forcing(.brokenPipe, on: "getpid", times: 5) {}
        #expect(try SystemCall.call("getpid") { getpid() } == getpid())
    }

    @Test func aForcedErrnoDoesNotReachAnotherThread() throws {
        let seen = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        defer { seen.deallocate() }
        seen.pointee = 0
        let pointer = UncheckedPointer(seen)
        SystemCallMock.forcing(.brokenPipe, on: "getpid", times: 100) {
            var done = pthread_t()
            let box = Unmanaged.passRetained(
                Box {
                    pointer.value.pointee = SystemCall.retrying("getpid") { getpid() }
                }
            ).toOpaque()
            pthread_create(
                &done, nil,
                {
                    Unmanaged<Box>.fromOpaque($0!).takeRetainedValue().body()
                    return nil
                }, box)
            pthread_join(done, nil)
        }
        #expect(seen.pointee == getpid())
    }

    @Test func aThreadStartsAndRunsItsBody() throws {
        let finished = UncheckedPointer(UnsafeMutablePointer<Int32>.allocate(capacity: 1))
        defer { finished.value.deallocate() }
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { for end in ends { close(end) } }
        let writeEnd = ends[1]
        try DetachedThread.start {
            finished.value.pointee = 42
            var byte: UInt8 = 1
            _ = write(writeEnd, &byte, 1)
        }
        var byte: UInt8 = 0
        var ready = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 10_000) == 1, "the thread wrote within 10 s")
        #expect(read(ends[0], &byte, 1) == 1)
        #expect(finished.value.pointee == 42)
    }

    @Test func aThreadThatCannotStartIsTheDoorsErrorAndRunsNothing() {
        #expect(throws: SystemCallError(.resourceTemporarilyUnavailable, call: "pthread_create")) {
            try SystemCallMock.forcing(.resourceTemporarilyUnavailable, on: "pthread_create") {
                try DetachedThread.start { Issue.record("the body ran") }
            }
        }
    }
}

/// A pointer handed to another thread in a test that joins or waits for it.
private struct UncheckedPointer: @unchecked Sendable {
    let value: UnsafeMutablePointer<Int32>
    init(_ value: UnsafeMutablePointer<Int32>) { self.value = value }
}

private final class Box {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}
