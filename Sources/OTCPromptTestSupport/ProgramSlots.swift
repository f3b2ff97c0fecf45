// SPDX-License-Identifier: GPL-3.0-or-later
import Testing

/// A trait for tests that run the built binary or real servers (`@Suite(.runsPrograms)`): each test case
/// holds one of a few slots while it runs.
///
/// Async tests wait without holding a thread, so the test runner starts them all at once; hundreds of
/// prompts, sshds and PulseAudios starting together on two cores would make a generous deadline a
/// guess. A few at a time keep the cores busy while others wait, and each test's own timing is what it
/// would be alone.
public struct RunsPrograms: SuiteTrait, TestTrait, TestScoping {
    /// How many such test cases run at once: enough to fill the cores while most of them wait.
    public static let slots = 6

    /// How many slots a test case holds: one, or all of them for a test whose assertion is a timing of the
    /// program's (keys typed within the type-ahead grace, 300 ms after the question appears), which must
    /// see the question as soon as it is drawn.
    let holds: Int

    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        await ProgramSlots.shared.acquire(holds)
        do {
            try await function()
        } catch {
            await ProgramSlots.shared.release(holds)
            throw error
        }
        await ProgramSlots.shared.release(holds)
    }
}

extension Trait where Self == RunsPrograms {
    /// The test runs the built binary or real servers: a few such tests at a time (`RunsPrograms`).
    public static var runsPrograms: Self { RunsPrograms(holds: 1) }
    /// The test times keys against the program's own rules: it runs with no other such test beside it.
    public static var runsProgramsAlone: Self { RunsPrograms(holds: RunsPrograms.slots) }
}

/// The slots `RunsPrograms` hands out, first come first served (a test waiting for all of them is not
/// overtaken, nor does it hold some while it waits).
actor ProgramSlots {
    static let shared = ProgramSlots(count: RunsPrograms.slots)

    private var free: Int
    private var waiting: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    init(count: Int) { free = count }

    func acquire(_ count: Int) async {
        if waiting.isEmpty, free >= count {
            free -= count
            return
        }
        await withCheckedContinuation { waiting.append((count, $0)) }
    }

    func release(_ count: Int) {
        free += count
        while let first = waiting.first, free >= first.count {
            free -= first.count
            waiting.removeFirst()
            first.continuation.resume()
        }
    }
}
