// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// The waits of `PseudoTerminalProcess` for async tests: each looks (reading what is ready, without
/// blocking), then suspends its task for `lookInterval`, so its thread goes back to the test runner's
/// pool (one thread a core) and other tests run while this one waits for its child.
///
/// A synchronous wait holds a pool thread for as long as it waits: on a two-core machine two of them
/// stop every other test. Same conditions, same deadlines; only the waiting differs.
extension PseudoTerminalProcess {
    /// How long an async wait stays suspended between two looks.
    static let lookInterval: Duration = .milliseconds(10)

    /// Waits until `condition` holds (the speech log, a file, a server's state), reading the terminal
    /// between looks so the child never blocks on a full one; false if `deadline` passes first.
    public func wait(deadline: Duration, until condition: (PseudoTerminalProcess) -> Bool) async -> Bool {
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: deadline)
        while true {
            pumpUntilQuiet()
            if condition(self) { return true }
            let left = clock.now.duration(to: end)
            if left <= .zero { return false }
            try? await Task.sleep(for: min(left, Self.lookInterval))
        }
    }

    /// Waits until the screen contains `text`; false if `deadline` passes first.
    public func waitForScreen(containing text: String, deadline: Duration) async -> Bool {
        await wait(deadline: deadline) { String(decoding: $0.screenBytes, as: UTF8.self).contains(text) }
    }

    /// Waits until stdout contains `text`; false if `deadline` passes first.
    public func waitForStandardOutput(containing text: String, deadline: Duration) async -> Bool {
        await wait(deadline: deadline) { String(decoding: $0.standardOutputBytes, as: UTF8.self).contains(text) }
    }

    /// Waits for the child to end; nil if `deadline` passes first (the child keeps running).
    public func waitForExit(deadline: Duration) async -> ExitStatus? {
        _ = await wait(deadline: deadline) { $0.reap() != nil }
        if exitStatus != nil { pumpUntilQuiet() }
        return exitStatus
    }

    /// Waits until the child is stopped (WUNTRACED); returns the stop signal, nil on deadline or exit.
    public func waitForStop(deadline: Duration) async -> Int32? {
        var stopSignal: Int32?
        _ = await wait(deadline: deadline) { process in
            stopSignal = process.lookForStop()
            return stopSignal != nil || process.exitStatus != nil
        }
        return stopSignal
    }
}
