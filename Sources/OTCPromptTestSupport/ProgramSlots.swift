// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
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
///
/// Each slot runs its test on a thread of its own (`SlotExecutor`, the test's task executor preference): a test
/// that blocks for a moment (a server's start, a helper that polls with `usleep`) holds its own thread, never one of
/// the runner's two, which every other async test needs to go on. Beside the whole suite, two such waits at once
/// had stopped every test for 45 s, and deadlines passed in tests that had done nothing wrong.
public struct TakesTurns: SuiteTrait, TestTrait, TestScoping {
    /// How many `.runsPrograms` test cases run at once: enough to fill the cores while most of them wait.
    public static let slots = 12

    let turns: ProgramSlots
    /// How many of `turns`' slots a test case holds: one, or all of them for a test that runs alone.
    var held = 1

    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        // A suite that runs alone holds every slot once, for all its tests: taken a test case at a time, the slots
        // freed between two cases went to the tests waiting, and each next case waited again for every running test
        // to end, with the slots it already held idle meanwhile (the suite's cases spent minutes draining).
        if held > 1 { return test.isSuite ? self : nil }
        return testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // Awaited, so a test waiting for its turn holds no thread.
        // A test that takes several slots first takes the one turn to do so: two taking them a slot at a time could
        // each end up with some, waiting for the other's for ever.
        let alone = held > 1 ? await ProgramSlots.alone.acquire() : nil
        var slots: [SlotExecutor] = []
        for _ in 0..<held { slots.append(await turns.acquire()) }
        func release() async {
            for slot in slots { await turns.release(slot) }
            if let alone { await ProgramSlots.alone.release(alone) }
        }
        do {
            try await withTaskExecutorPreference(slots[0]) { try await function() }
        } catch {
            await release()
            throw error
        }
        await release()
    }
}

extension Trait where Self == TakesTurns {
    /// The test runs the built binary or real servers: a few such tests at a time.
    public static var runsPrograms: Self { TakesTurns(turns: ProgramSlots.shared) }
    /// The test makes what every other program-running test would notice (a process named as a screen reader of
    /// this user's), or times what a loaded machine would stretch (a command typed 100 ms after Esc): it holds every
    /// slot, so no other program-running test runs meanwhile. On a suite, whose tests it covers together (their cases
    /// one after another with `.serialized`); never inside a `.runsPrograms` suite, whose slot it would hold while it
    /// waits for the rest.
    public static var runsAlone: Self { TakesTurns(turns: ProgramSlots.shared, held: TakesTurns.slots) }
    /// The test waits synchronously on purpose: one such test at a time.
    public static var waitsSynchronously: Self { TakesTurns(turns: ProgramSlots.synchronous) }
}

/// The slots `TakesTurns` hands out, first come first served, each with its thread.
actor ProgramSlots {
    static let shared: ProgramSlots = {
        // Every run that starts programs comes here first: a signal that kills the runner is then reported.
        FatalSignalReport.install()
        return ProgramSlots(count: TakesTurns.slots)
    }()
    /// The one turn of the tests that wait synchronously (`.waitsSynchronously`).
    static let synchronous = ProgramSlots(count: 1)
    /// The one turn to take every slot (`.runsAlone`).
    static let alone = ProgramSlots(count: 1)

    private var free: [SlotExecutor]
    private var waiting: [CheckedContinuation<SlotExecutor, Never>] = []

    init(count: Int) { free = (0..<count).map { _ in SlotExecutor() } }

    /// How many are waiting for a slot (for the slots' own tests).
    var waitingCount: Int { waiting.count }

    func acquire() async -> SlotExecutor {
        if let slot = free.popLast() { return slot }
        return await withCheckedContinuation { waiting.append($0) }
    }

    func release(_ slot: SlotExecutor) {
        if waiting.isEmpty {
            free.append(slot)
        } else {
            waiting.removeFirst().resume(returning: slot)
        }
    }
}

/// A task executor with one thread of its own, which runs its jobs in order. Started when first used, it lives as
/// long as the test process: a slot's tests take turns on it.
public final class SlotExecutor: TaskExecutor, @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    private var jobs: [UnownedJob] = []
    private var started = false
    private var thread: pthread_t?

    init() {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        pthread_mutex_lock(&mutex)
        jobs.append(job)
        if !started {
            started = true
            startThread()
        }
        pthread_cond_signal(&condition)
        pthread_mutex_unlock(&mutex)
    }

    private func startThread() {
        let executor = Unmanaged.passRetained(self)
        var thread = pthread_t()
        let made = pthread_create(
            &thread, nil,
            { context in Unmanaged<SlotExecutor>.fromOpaque(context!).takeRetainedValue().run() },
            executor.toOpaque())
        precondition(made == 0, "no thread for a test slot: \(made)")
        pthread_detach(thread)
    }

    /// Whether the caller runs on this executor's own thread (never one of the runner's).
    public var isCurrentThread: Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
    }

    private func run() -> Never {
        pthread_mutex_lock(&mutex)
        thread = pthread_self()
        pthread_mutex_unlock(&mutex)
        while true {
            pthread_mutex_lock(&mutex)
            while jobs.isEmpty { pthread_cond_wait(&condition, &mutex) }
            let job = jobs.removeFirst()
            pthread_mutex_unlock(&mutex)
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
