// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import Testing

@testable import OTCPromptTestSupport

private let shellEnvironment = ["PATH": "/usr/bin:/bin", "TERM": "xterm"]

/// The harness's async waits: the same conditions and results as the synchronous ones, without holding a thread.
@Suite struct AsyncHarnessTests {
    @Test func aTypedLineIsAwaitedOnTheScreenAndTheExitAndStdoutIsApart() async throws {
        let child = try PseudoTerminalProcess(
            executable: "/bin/sh", arguments: ["-c", "printf 'Code: ' >&2; read x; echo got $x"],
            environment: shellEnvironment)
        #expect(await child.waitForScreen(containing: "Code: ", deadline: .seconds(10)))
        #expect(child.type("123456\r"))
        #expect(await child.waitForStandardOutput(containing: "got 123456", deadline: .seconds(10)))
        #expect(await child.waitForExit(deadline: .seconds(10)) == .exited(0))
        #expect(child.standardOutput == "got 123456\n")
        #expect(!child.screen.contains("got"), "stdout is not the terminal")
    }

    @Test func aWaitWhoseConditionNeverHoldsEndsAtItsDeadlineAndTheChildRunsOn() async throws {
        let child = try PseudoTerminalProcess(
            executable: "/bin/sh", arguments: ["-c", "read x"], environment: shellEnvironment)
        let clock = ContinuousClock()
        let started = clock.now
        #expect(await child.waitForScreen(containing: "never", deadline: .milliseconds(100)) == false)
        #expect(clock.now - started >= .milliseconds(100))
        #expect(await child.waitForExit(deadline: .zero) == nil)
        child.sendSignal(SIGTERM)
        #expect(await child.waitForExit(deadline: .seconds(10)) == .signaled(SIGTERM))
    }

    @Test func aStoppedChildIsSeenWithItsSignal() async throws {
        let child = try PseudoTerminalProcess(
            executable: "/bin/sh", arguments: ["-c", "kill -STOP $$; exit 3"], environment: shellEnvironment)
        #expect(await child.waitForStop(deadline: .seconds(10)) == SIGSTOP)
        child.sendSignal(SIGCONT)
        #expect(await child.waitForExit(deadline: .seconds(10)) == .exited(3))
    }
}

/// The slots `.runsPrograms` hands out: never more at once than there are, and the first to wait is the first in.
@Suite struct ProgramSlotsTests {
    @Test func aReleaseLetsTheFirstWaiterInAndNoMoreThanTheSlotsAreHeld() async {
        let slots = ProgramSlots(count: 2)
        let one = await slots.acquire()
        let two = await slots.acquire()
        #expect(one !== two)
        let order = Order()
        let first = Task {
            _ = await slots.acquire()
            await order.append(1)
        }
        // The first waiter is queued before the second is started.
        while await slots.waitingCount < 1 { await Task.yield() }
        let second = Task {
            _ = await slots.acquire()
            await order.append(2)
        }
        while await slots.waitingCount < 2 { await Task.yield() }
        #expect(await order.values.isEmpty, "a third holder while two slots are held")
        await slots.release(one)
        #expect(await order.becomes([1]), "the first to wait is the first in")
        await slots.release(two)
        #expect(await order.becomes([1, 2]))
        _ = (first, second)
    }

    /// Two tests that block their thread (as a helper polling with `usleep` does) each block a thread of their slot's
    /// own, never one of the runner's (one a core, two here), on which a third, plain async task could then never
    /// run. Judged by where they run, not by whether a third task runs in time: under a loaded full run, other
    /// tests keep the runner's threads busy for longer than any deadline.
    @Test func testsThatBlockTheirSlotsThreadLeaveTheRunnersThreadsFree() async {
        let slots = ProgramSlots(count: 2)
        let flag = Flag()
        func blockingUntilFlagged(on slot: SlotExecutor) -> Task<(onItsThread: Bool, thread: pthread_t), Never> {
            Task(executorPreference: slot) {
                let onItsThread = slot.isCurrentThread
                let end = ContinuousClock.now + .seconds(20)
                while !flag.isSet, ContinuousClock.now < end { usleep(1_000) }
                return (onItsThread, pthread_self())
            }
        }
        let first = blockingUntilFlagged(on: await slots.acquire())
        let second = blockingUntilFlagged(on: await slots.acquire())
        flag.set()
        let (a, b) = (await first.value, await second.value)
        #expect(a.onItsThread && b.onItsThread)
        #expect(pthread_equal(a.thread, b.thread) == 0, "each slot has a thread of its own")
    }

    final class Flag: @unchecked Sendable {
        private var mutex = pthread_mutex_t()
        private var value = false
        init() { pthread_mutex_init(&mutex, nil) }
        var isSet: Bool {
            pthread_mutex_lock(&mutex)
            defer { pthread_mutex_unlock(&mutex) }
            return value
        }
        func set() {
            pthread_mutex_lock(&mutex)
            value = true
            pthread_mutex_unlock(&mutex)
        }
    }

    actor Order {
        var values: [Int] = []
        func append(_ value: Int) { values.append(value) }

        /// Waits (bounded: a wrong order never comes) until the values are `expected`.
        func becomes(_ expected: [Int]) async -> Bool {
            let end = ContinuousClock.now + .seconds(5)
            while values != expected, ContinuousClock.now < end { try? await Task.sleep(for: .milliseconds(5)) }
            return values == expected
        }
    }
}
