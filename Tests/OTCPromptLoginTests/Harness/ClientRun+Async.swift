import Glibc
import OTCPromptTestSupport
import Testing

// The client's waits for async tests: suspended between looks, they leave the test runner's threads to other
// tests (`PseudoTerminalProcess+Async`). Each says what its synchronous namesake says.
extension ClientRun {
    @discardableResult
    func waitForScreen(_ text: String, deadline: Duration = .seconds(15)) async -> Bool {
        await process.wait(deadline: deadline) { $0.screen.contains(text) }
    }

    @discardableResult
    func waitForQuestion(_ question: String, call: Int = 1, speechLog: String? = nil) async -> Bool {
        let onScreen = await waitForScreen(question)
        guard let speechLog else { return onScreen && call == 1 }
        return await process.wait(deadline: .seconds(15)) { _ in
            SpokenLine.read(speechLog).filter { $0.event == "prompt" && $0.text.contains(question) }.count >= call
        }
    }

    func answer(
        _ text: String, after question: String, call: Int = 1, speechLog: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let asked = await waitForQuestion(question, call: call, speechLog: speechLog)
        #expect(
            asked, "never asked: \(question) (call \(call)); screen: \(visibleScreen)", sourceLocation: sourceLocation)
        await pauseReading(Self.reactionTime)
        await typeKeys(text)
    }

    @discardableResult
    func readBack(_ question: String, untilSaid count: Int, speechLog: String) async -> Bool {
        await pauseReading(Self.reactionTime)
        process.type([0x12])
        return await waitForQuestion(question, call: count, speechLog: speechLog)
    }

    @discardableResult
    func waitForHelp(count: Int, speechLog: String) async -> Bool {
        await process.wait(deadline: .seconds(15)) { _ in
            SpokenLine.read(speechLog).filter { $0.event == "help" }.count >= count
        }
    }

    func typeKeys(_ text: String) async {
        for character in text {
            process.type(String(character))
            await pauseReading(.milliseconds(30))
        }
    }

    func exit(deadline: Duration = .seconds(30)) async -> ExitStatus? {
        await process.waitForExit(deadline: deadline)
    }

    /// Waits `duration` reading the terminal meanwhile, the task suspended: the program's own rule, not a guess.
    func pauseReading(_ duration: Duration) async {
        _ = await process.wait(deadline: duration) { _ in false }
    }
}

/// Sleeps `duration`, the task suspended: its thread runs other tests meanwhile.
func pause(_ duration: Duration) async {
    try? await Task.sleep(for: duration)
}

/// Waits (bounded) until `condition` holds, the task suspended between looks.
@discardableResult
func waitUntil(deadline: Duration, _ condition: () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let end = clock.now + deadline
    while clock.now < end {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return condition()
}

/// Runs `arguments` (argv[0] a path) with no terminal, waits at most `deadline`, and returns what it printed.
@discardableResult
func runCommand(
    _ arguments: [String],
    environment: [String: String] = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"],
    deadline: Duration = .seconds(20)
) async throws -> CommandResult {
    let process = try PseudoTerminalProcess(
        executable: arguments[0], arguments: Array(arguments.dropFirst()), environment: environment, terminal: false)
    let status = await process.waitForExit(deadline: deadline)
    return CommandResult(status: status, output: process.standardOutput, error: process.standardErrorText)
}

/// Runs `arguments` and throws unless it exits 0, the task suspended while it runs.
func runChecked(_ arguments: [String], deadline: Duration = .seconds(20)) async throws {
    let result = try await runCommand(arguments, deadline: deadline)
    guard result.status == .exited(0) else {
        throw HarnessError("\(arguments.joined(separator: " ")): \(String(describing: result.status)) \(result.error)")
    }
}
