import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// One run of the built `otc-prompt` on a fresh pseudo-terminal, with a speech log to read.
final class PromptRun {
    let process: PseudoTerminalProcess
    let logPath: String
    let attributesBefore: termios

    /// Where `swift build` put the binary (OTC_PROMPT_BINARY overrides).
    static var binary: String {
        if let path = ProcessInfo.processInfo.environment["OTC_PROMPT_BINARY"] { return path }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/otc-prompt").path
    }

    /// The environment of a plain colour terminal with no audio server: nothing of the caller's leaks in.
    static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = [
            "TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin",
            "HOME": NSTemporaryDirectory(), "PULSE_SERVER": "unix:/nonexistent",
            "XDG_CONFIG_HOME": NSTemporaryDirectory() + "/otc-prompt-no-config",
            // A store of its own for each run: nothing remembered from another test (or the user).
            "XDG_RUNTIME_DIR": privateDirectory(),
        ]
        // Sanitizer runs (docs/security.md) configure the sanitized binary through these.
        let inherited = ProcessInfo.processInfo.environment
        for name in ["ASAN_OPTIONS", "TSAN_OPTIONS", "LSAN_OPTIONS"] { environment[name] = inherited[name] }
        environment.merge(extra) { $1 }
        return environment
    }

    /// A new directory, 0700, for a run's private state: inside one parent per test process, which is removed
    /// when the process exits (thousands of runs leave nothing in the temporary directory).
    static func privateDirectory() -> String {
        let path = runtimeParent + "/\(UUID().uuidString)"
        mkdir(path, 0o700)
        return path
    }

    private static let runtimeParent: String = {
        let path = NSTemporaryDirectory() + "/otc-e2e-runtime-\(getpid())-\(UUID().uuidString.prefix(8))"
        mkdir(path, 0o700)
        atexit { try? FileManager.default.removeItem(atPath: PromptRun.runtimeParent) }
        return path
    }()

    /// Starts the prompt with `arguments` (a speech log is added) and waits until it shows `ready`. For a test that
    /// types past the grace next, `ready` is what the prompt's loop draws (its field or its question), never one of
    /// the detail lines written above it before the loop starts: the grace begins, and what was typed is flushed,
    /// only when the loop does, which a loaded machine can put well after those lines.
    convenience init(
        _ arguments: [String], environment: [String: String] = PromptRun.environment(),
        speech: String = "none", ready: String? = "Verification code",
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try self.init(arguments, environment: environment, speech: speech, startOnly: ())
        if let ready {
            // Generous: a debug build starting on a busy machine; only a prompt that never shows waits it out.
            let shown = process.waitForScreen(containing: ready, deadline: .seconds(30))
            #expect(
                shown, "the prompt never showed \(ready); screen: \(process.screen)", sourceLocation: sourceLocation)
        }
    }

    /// Starts the prompt, without waiting for anything; through `launcher` (a program and its arguments, which
    /// runs the binary and the arguments that follow it) when one is given.
    private init(
        _ arguments: [String], environment: [String: String], speech: String, launcher: [String] = [],
        startOnly: Void
    ) throws {
        logPath = NSTemporaryDirectory() + "/otc-e2e-\(UUID().uuidString).jsonl"
        // Before the caller's arguments: after --askpass, the last argument is always the prompt.
        var fullArguments = ["--speech-log", logPath]
        if !arguments.contains("--speech") { fullArguments += ["--speech", speech] }
        fullArguments += arguments
        process = try PseudoTerminalProcess(
            executable: launcher.first ?? Self.binary,
            arguments: launcher.isEmpty ? fullArguments : Array(launcher.dropFirst()) + [Self.binary] + fullArguments,
            environment: environment)
        attributesBefore = process.attributesAtStart
    }

    deinit { try? FileManager.default.removeItem(atPath: logPath) }

    func type(_ text: String) { process.type(text) }
    func type(_ bytes: [UInt8]) { process.type(bytes) }

    /// Waits (bounded) for the log to hold `count` lines, then returns its entries.
    func logEntries(atLeast count: Int = 0, deadline: Duration = .seconds(5)) -> [LogEntry] {
        let clock = ContinuousClock()
        let end = clock.now + deadline
        while true {
            let entries = readLog()
            if entries.count >= count || clock.now >= end { return entries }
            usleep(10_000)
        }
    }

    /// Waits (bounded) until the log has `count` entries for `event`.
    @discardableResult
    func waitForEvent(_ event: String, count: Int = 1, deadline: Duration = .seconds(5)) -> Bool {
        let clock = ContinuousClock()
        let end = clock.now + deadline
        while clock.now < end {
            if readLog().filter({ $0.event == event }).count >= count { return true }
            usleep(10_000)
        }
        return false
    }

    /// Waits the program's type-ahead grace, once the prompt is seen (`PseudoTerminalProcess.typeAheadGrace`).
    func waitPastTheGrace() { process.waitPastTheGrace() }

    /// The log as it is now, without waiting (for a failure's message).
    var log: [LogEntry] { readLog() }

    /// A barrier instead of a wait for nothing to happen: asks for the question again (Ctrl-R, past the
    /// grace) and waits until it has been said once more. Keys are read in order, so everything typed
    /// before was read by then and ended nothing; false if the prompt exited instead.
    func stillAsking(deadline: Duration = .seconds(10)) -> Bool {
        waitPastTheGrace()
        let said = readLog().filter { $0.event == "prompt" }.count
        type([0x12])
        return process.wait(deadline: deadline) { process in
            process.hasExited || self.readLog().filter { $0.event == "prompt" }.count > said
        } && !process.hasExited
    }

    /// The announcements' lines; their outcomes' lines (how each was heard) are read by `outcomes`.
    fileprivate func readLog() -> [LogEntry] {
        guard let text = try? String(contentsOfFile: logPath, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let data = line.data(using: .utf8),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let event = object["event"] as? String, let ms = object["ms"] as? Int
            else { return LogEntry(event: "<malformed>", text: String(line), ms: -1) }
            if object["of"] is Int, ["heard", "cut"].contains(event) { return nil }
            guard let text = object["text"] as? String else {
                return LogEntry(event: "<malformed>", text: String(line), ms: -1)
            }
            return LogEntry(
                event: event, text: text, ms: ms, said: object["said"] as? String, lead: object["lead"] as? String,
                number: object["n"] as? Int)
        }
    }

    /// The log's outcome lines: how each announcement was heard, in the order written.
    var outcomes: [LogOutcome] {
        guard let text = try? String(contentsOfFile: logPath, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let data = line.data(using: .utf8),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let event = object["event"] as? String, let of = object["of"] as? Int, let ms = object["ms"] as? Int
            else { return nil }
            return LogOutcome(event: event, of: of, by: object["by"] as? String, began: object["began"] as? Int, ms: ms)
        }
    }

    /// Waits (bounded, generously: the bound is for a hang, not a speed) for the prompt to exit; nil if it did not.
    func exit(deadline: Duration = .seconds(30)) -> OTCPromptTestSupport.ExitStatus? {
        process.waitForExit(deadline: deadline)
    }

    /// True when the terminal's attributes are exactly what they were before the prompt started.
    var terminalRestored: Bool {
        sameAttributes(attributesBefore, process.slaveAttributes())
    }

    /// Sends `signal` and checks that the prompt ends by it, whatever it was waiting for, with the terminal
    /// restored and nothing on stdout. The deadline bounds a hang: how fast it ends is a figure for `make bench`,
    /// which a loaded machine cannot break.
    func expectEndsPromptly(by signal: Int32, sourceLocation: SourceLocation = #_sourceLocation) {
        process.sendSignal(signal)
        #expect(exit(deadline: .seconds(10)) == .signaled(signal), sourceLocation: sourceLocation)
        expectRestoredAndSilent(sourceLocation: sourceLocation)
    }

    private func expectRestoredAndSilent(sourceLocation: SourceLocation) {
        #expect(terminalRestored, sourceLocation: sourceLocation)
        #expect(process.standardOutput == "", sourceLocation: sourceLocation)
    }
}

// The same waits for async tests: suspended between looks, they leave the test runner's threads to other
// tests (`PseudoTerminalProcess+Async`).
extension PromptRun {
    /// Starts the prompt with `arguments` (a speech log is added) and waits until it shows `ready`; through
    /// `launcher` when one is given (`PrivateAskPassword`).
    convenience init(
        _ arguments: [String], environment: [String: String] = PromptRun.environment(),
        speech: String = "none", ready: String? = "Verification code", launcher: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try self.init(arguments, environment: environment, speech: speech, launcher: launcher, startOnly: ())
        if let ready {
            let shown = await process.waitForScreen(containing: ready, deadline: .seconds(30))
            #expect(
                shown, "the prompt never showed \(ready); screen: \(process.screen)", sourceLocation: sourceLocation)
        }
    }

    /// Waits (bounded) for the log to hold `count` lines, then returns its entries.
    func logEntries(atLeast count: Int = 0, deadline: Duration = .seconds(5)) async -> [LogEntry] {
        var entries: [LogEntry] = []
        _ = await process.wait(deadline: deadline) { _ in
            entries = self.readLog()
            return entries.count >= count
        }
        return entries
    }

    /// Waits (bounded) until the log has `count` entries for `event`.
    @discardableResult
    func waitForEvent(_ event: String, count: Int = 1, deadline: Duration = .seconds(5)) async -> Bool {
        await process.wait(deadline: deadline) { _ in self.readLog().filter { $0.event == event }.count >= count }
    }

    /// Waits the program's type-ahead grace, once the prompt is seen (`PseudoTerminalProcess.typeAheadGrace`).
    func waitPastTheGrace() async { await process.waitPastTheGrace() }

    /// A barrier instead of a wait for nothing to happen (see the synchronous `stillAsking`).
    func stillAsking(deadline: Duration = .seconds(10)) async -> Bool {
        await waitPastTheGrace()
        let said = readLog().filter { $0.event == "prompt" }.count
        type([0x12])
        let saidAgain = await process.wait(deadline: deadline) { process in
            process.hasExited || self.readLog().filter { $0.event == "prompt" }.count > said
        }
        return saidAgain && !process.hasExited
    }

    /// Waits (bounded, generously: the bound is for a hang, not a speed) for the prompt to exit; nil if it did not.
    func exit(deadline: Duration = .seconds(30)) async -> OTCPromptTestSupport.ExitStatus? {
        await process.waitForExit(deadline: deadline)
    }

    /// Sends `signal` and checks that the prompt ends by it (see the synchronous `expectEndsPromptly`).
    func expectEndsPromptly(by signal: Int32, sourceLocation: SourceLocation = #_sourceLocation) async {
        process.sendSignal(signal)
        #expect(await exit(deadline: .seconds(10)) == .signaled(signal), sourceLocation: sourceLocation)
        expectRestoredAndSilent(sourceLocation: sourceLocation)
    }
}

/// One line of the speech log.
struct LogEntry: Equatable, CustomStringConvertible {
    var event: String
    var text: String
    var ms: Int
    /// The words handed to the voice, where they differ from `text`.
    var said: String? = nil
    /// An opening's first sentence, as the voice says it.
    var lead: String? = nil
    /// Which announcement of the prompt it is, for its outcome's line.
    var number: Int? = nil
    var description: String { "\(event): \(text)" }
}

/// One outcome line of the speech log: announcement `of` was heard to its end, or cut `by` an event.
struct LogOutcome: Equatable {
    var event: String
    var of: Int
    var by: String?
    var began: Int?
    var ms: Int
}

/// Compares every field of two termios structures, control characters included.
func sameAttributes(_ a: termios, _ b: termios) -> Bool {
    var a = a
    var b = b
    return a.c_iflag == b.c_iflag && a.c_oflag == b.c_oflag && a.c_cflag == b.c_cflag && a.c_lflag == b.c_lflag
        && withUnsafeBytes(of: &a.c_cc) { x in withUnsafeBytes(of: &b.c_cc) { y in x.elementsEqual(y) } }
}
