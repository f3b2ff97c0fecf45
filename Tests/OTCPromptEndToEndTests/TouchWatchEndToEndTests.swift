import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// `otc-prompt --touch-watch` on a pty, with stand-ins as faithful as the protocols allow: a stand-in pam_u2f that
/// opens its pending file O_RDONLY|O_CREAT while it "waits" and closes it after, and a stand-in
/// yubikey-touch-detector (`StandInTouchDetector`) that listens where the real one does and sends its 5-byte
/// messages. Each cue must be in the speech log within a second of its signal. The pending file is opened
/// close-on-exec: inotify reports a close when the last reference to the open file goes, and a program another test
/// spawned meanwhile would hold one until it ended (a close heard seconds late, or not before the next wait began).
@Suite(.runsPrograms)
struct TouchWatchEndToEndTests {
    /// The promise: "Touch your security key." within a second of either signal.
    static let limit: Duration = .seconds(1)
    static let cue = "Touch your security key."

    /// The watcher's own rule: a signal within half a second of a wait's end belongs to that wait. Waits in these
    /// tests are further apart than that, so that each is its own.
    static func pastTheMergeWindow() async { try? await Task.sleep(for: .milliseconds(600)) }

    static func start(_ arguments: [String] = [], environment: [String: String]) async throws -> PromptRun {
        try await PromptRun(["--touch-watch"] + arguments, environment: environment, ready: "touch cues watch")
    }

    /// How long after `signal` the log holds `count` lines saying `text`, nil when not within 5 s.
    static func heard(
        _ run: PromptRun, _ text: String = cue, count: Int, after signal: () -> Void
    ) async -> Duration? {
        let clock = ContinuousClock()
        let start = clock.now
        signal()
        let said = await run.process.wait(deadline: .seconds(5)) { _ in
            run.logLines().filter { $0.text == text }.count >= count
        }
        return said ? clock.now - start : nil
    }

    @Test func aStandInPamU2FsWaitsAreHeardWithinASecondAlsoAfterItsFileIsRemovedAndMadeAgain() async throws {
        let environment = PromptRun.environment()
        let directory = try #require(environment["XDG_RUNTIME_DIR"])
        let pending = directory + "/pam-u2f-authpending"
        let run = try await Self.start(environment: environment)
        var latencies: [Duration] = []
        for wait in 1...4 {
            if wait == 3 { unlink(pending) }
            var file: Int32 = -1
            let latency = await Self.heard(run, count: wait) { file = open(pending, O_RDONLY | O_CREAT | O_CLOEXEC, 0o600) }
            #expect(file >= 0)
            close(file)
            latencies.append(try #require(latency, "wait \(wait) not heard; screen: \(run.process.screen)"))
            await Self.pastTheMergeWindow()
        }
        #expect(latencies.allSatisfy { $0 < Self.limit }, "\(latencies)")
        #expect(await run.process.waitForScreen(containing: Self.cue, deadline: .seconds(5)))
        await run.expectEndsPromptly(by: SIGTERM)
        // Once each, and nothing for the closes: the process has ended, so nothing more can come.
        #expect(run.logLines().map(\.text) == Array(repeating: Self.cue, count: 4))
    }

    @Test func aStandInDetectorsU2FAndGPGAreHeardAcrossItsRestartAndDoneOnlyWhenAsked() async throws {
        let environment = PromptRun.environment()
        let directory = try #require(environment["XDG_RUNTIME_DIR"])
        var detector = try StandInTouchDetector(directory: directory)
        let run = try await Self.start(["--touch-says-done"], environment: environment)
        #expect(detector.accept())
        let first = await Self.heard(run, count: 1) { detector.send("U2F_1") }
        #expect(try #require(first) < Self.limit)
        #expect(await Self.heard(run, "Done.", count: 1) { detector.send("U2F_0") } != nil)
        // The detector restarts: its socket removed with its connections, then made again.
        detector.stop()
        detector = try StandInTouchDetector(directory: directory)
        #expect(detector.accept())
        await Self.pastTheMergeWindow()
        // Split across two writes, as a stream may deliver it.
        let second = await Self.heard(run, count: 2) {
            detector.send("GP")
            detector.send("G_1")
        }
        #expect(try #require(second) < Self.limit)
        #expect(await Self.heard(run, "Done.", count: 2) { detector.send("GPG_0") } != nil)
        await run.expectEndsPromptly(by: SIGINT)
        #expect(run.logLines().map(\.text) == [Self.cue, "Done.", Self.cue, "Done."])
        detector.stop()
    }

    @Test func pamU2FAndTheDetectorSignallingOneWaitAreOneCue() async throws {
        let environment = PromptRun.environment()
        let directory = try #require(environment["XDG_RUNTIME_DIR"])
        let detector = try StandInTouchDetector(directory: directory)
        defer { detector.stop() }
        let run = try await Self.start(environment: environment)
        #expect(detector.accept())
        let pending = directory + "/pam-u2f-authpending"
        var file: Int32 = -1
        #expect(await Self.heard(run, count: 1) { file = open(pending, O_RDONLY | O_CREAT | O_CLOEXEC, 0o600) } != nil)
        detector.send("U2F_1")
        detector.send("U2F_0")
        close(file)
        await Self.pastTheMergeWindow()
        // A second wait is the barrier: were the first one's detector signal cued, it would be logged before it.
        #expect(await Self.heard(run, count: 2) { detector.send("GPG_1") } != nil)
        await run.expectEndsPromptly(by: SIGTERM)
        #expect(run.logLines().map(\.text) == [Self.cue, Self.cue])
    }

    @Test func anIdleWatcherWakesNotAtAll() async throws {
        let environment = PromptRun.environment()
        let directory = try #require(environment["XDG_RUNTIME_DIR"])
        let detector = try StandInTouchDetector(directory: directory)
        defer { detector.stop() }
        close(open(directory + "/pam-u2f-authpending", O_RDONLY | O_CREAT | O_CLOEXEC, 0o600))
        let run = try await Self.start(["--touch-says-done"], environment: environment)
        #expect(detector.accept())
        let pid = run.process.processID
        // One wait and its "Done.", so that the voice's and the clock's parts have run once.
        #expect(await Self.heard(run, count: 1) { detector.send("U2F_1") } != nil)
        #expect(await Self.heard(run, "Done.", count: 1) { detector.send("U2F_0") } != nil)
        #expect(await AgentIdleEndToEndTests.settles(pid, deadline: .seconds(15)), "the watcher never went quiet")
        let before = AgentIdleEndToEndTests.contextSwitches(of: pid)
        // The interval measured, not a wait for an event: nothing is expected to happen in it (as for the agent).
        usleep(2_000_000)  // measured interval
        let after = AgentIdleEndToEndTests.contextSwitches(of: pid)
        #expect(!before.isEmpty)
        #expect(after == before, "threads that woke while idle: \(before) then \(after)")
        await run.expectEndsPromptly(by: SIGTERM)
    }
}

extension PromptRun {
    /// The speech log's announcements, read now.
    func logLines() -> [LogEntry] {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let event = object["event"] as? String, let said = object["text"] as? String
            else { return nil }
            return LogEntry(event: event, text: said, ms: object["ms"] as? Int ?? 0)
        }
    }
}
