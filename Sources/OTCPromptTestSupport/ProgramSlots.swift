// SPDX-License-Identifier: GPL-3.0-or-later
import Testing

/// A trait for tests that take turns: each test case holds one of a few slots while it runs.
///
/// `.runsPrograms`, for tests that run the built binary or real servers: async tests wait without holding a
/// thread, so the test runner starts them all at once; hundreds of prompts, sshds and PulseAudios starting
/// together on two cores would make a generous deadline a guess. A few at a time (`slots`) keep the cores busy
/// while others wait, and each test's own timing is what it would be alone.
///
/// `.waitsSynchronously`, for the few tests that wait synchronously on purpose: they time keys against the
/// program's 300 ms grace, so their waits must wake the moment the question is drawn, and each holds one of the
/// test runner's threads while it runs. They go one at a time: the runner has a thread a core (two here), and
/// two such tests at once would stop every async test, whose programs then time out.
public struct TakesTurns: SuiteTrait, TestTrait, TestScoping {
    /// How many `.runsPrograms` test cases run at once: enough to fill the cores while most of them wait.
    public static let slots = 12

    let turns: ProgramSlots

    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // Awaited, so a test waiting for its turn holds no thread.
        await turns.acquire()
        do {
            try await function()
        } catch {
            await turns.release()
            throw error
        }
        await turns.release()
    }
}

extension Trait where Self == TakesTurns {
    /// The test runs the built binary or real servers: a few such tests at a time.
    public static var runsPrograms: Self { TakesTurns(turns: ProgramSlots.shared) }
    /// The test waits synchronously on purpose: one such test at a time.
    public static var waitsSynchronously: Self { TakesTurns(turns: ProgramSlots.synchronous) }
}

/// The slots `TakesTurns` hands out, first come first served.
actor ProgramSlots {
    static let shared = ProgramSlots(count: TakesTurns.slots)
    /// The one turn of the tests that wait synchronously (`.waitsSynchronously`).
    static let synchronous = ProgramSlots(count: 1)

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) { free = count }

    /// How many are waiting for a slot (for the slots' own tests).
    var waitingCount: Int { waiting.count }

    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
