import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// It is read with a deadline beside the terminal's signals. A file
/// system that never answers gives the defaults after a second, said once on the screen and in speech;
/// a slow one that answers in time is used, bad values reported with file:line; anything but a regular
/// file is refused at once; and SIGINT, SIGTERM or SIGHUP end the prompt at any moment of the wait.
@Suite(.runsPrograms, .serialized)
struct ConfigDeadlineEndToEndTests {
    /// A config file holding `text`, removed when `body` returns.
    private func withConfig<T>(_ text: String, _ body: (String) async throws -> T) async throws -> T {
        let written = NSTemporaryDirectory() + "/otc-config-\(UUID().uuidString)"
        try text.write(toFile: written, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: written) }
        // The prompt opens the file by its real path (the directories it judges): the slow open is that one.
        let path = try #require(realpath(written, nil).map { String(cString: $0) })
        return try await body(path)
    }

    @Test(arguments: [
        ("C.UTF-8", "did not answer within 1 second; using the defaults"),
        ("pt_BR.UTF-8", "não respondeu em 1 segundo; usando os valores padrão"),
    ])
    func aConfigFileOnAStuckFileSystemGivesTheDefaultsAfterASecondSaidOnce(locale: String, notice: String) async throws
    {
        try await withConfig("verbosity = \"terse\"\n") { path in
            let environment = try SlowFileSystem.environment(
                PromptRun.environment(["OTC_PROMPT_CONFIG": path, "LANG": locale]), path: path, delay: nil)
            let clock = ContinuousClock()
            let started = clock.now
            let run = try await PromptRun([], environment: environment, ready: nil)
            // The field (boxes) is drawn once the wait is over, in either language.
            #expect(await run.process.waitForScreen(containing: "▏", deadline: .seconds(5)))
            let shownAfter = clock.now - started
            #expect(flat(run.process.screen).contains(notice), "\(run.process.screen)")
            // Not before the read's 1 s deadline. A hang is the screen wait's deadline above; how soon after the
            // deadline it is drawn is make bench's (a loaded machine can take seconds to start the program at all).
            #expect(shownAfter >= .milliseconds(900), "shown after \(shownAfter)")
            run.type("123456")
            #expect(await run.exit() == .exited(0))
            #expect(run.process.standardOutput == "123456\n")
            #expect(run.terminalRestored)
            // Said once, with the opening.
            let said = await run.logEntries().filter { $0.text.contains(notice) }
            #expect(said.map(\.event) == ["prompt"], "\(run.log)")
            // The defaults, not the file's terse: the hints are said.
            #expect(said.first?.text.contains(locale == "C.UTF-8" ? "Control R reads" : "Control R lê") == true)
            #expect(flat(run.process.screen).components(separatedBy: notice).count == 2)
        }
    }

    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func aSignalWhileTheConfigFileIsWaitedForEndsThePromptAtOnce(signal: Int32) async throws {
        try await withConfig("length = 4\n") { path in
            let environment = try SlowFileSystem.environment(
                PromptRun.environment(["OTC_PROMPT_CONFIG": path]), path: path, delay: nil)
            let run = try await PromptRun([], environment: environment, ready: nil)
            // Raw mode first (no echo), then the wait: the field is not drawn yet.
            let clock = ContinuousClock()
            let end = clock.now + .seconds(5)
            while run.process.slaveAttributes().c_lflag & tcflag_t(ECHO) != 0, clock.now < end { usleep(5_000) }
            usleep(200_000)
            #expect(!run.process.screen.contains("Verification code"))
            run.type("12")
            usleep(100_000)  // taken by the terminal (unechoed) before the signal restores echo
            await run.expectEndsPromptly(by: signal)
            #expect(!run.process.screen.contains("12"))
        }
    }

    /// A slow file system that answers within the deadline: the file is used, its bad value reported
    /// once with its line, its good values (speech, verbosity) in force from the start.
    @Test func aSlowConfigFileThatAnswersInTimeIsUsedWithItsProblemsReported() async throws {
        try await withConfig("verbosity = \"terse\"\nrate = 1000\nspeech = \"text\"\n") { path in
            let environment = try SlowFileSystem.environment(
                PromptRun.environment(["OTC_PROMPT_CONFIG": path]), path: path, delay: .milliseconds(400))
            // No --speech on the command line: the file's `text` decides how the voice starts.
            let process = try PseudoTerminalProcess(
                executable: PromptRun.binary, arguments: [], environment: environment)
            // With `text`, the opening is a line of its own (the field itself is not drawn).
            #expect(
                await process.waitForScreen(containing: "Type 6 digits.", deadline: .seconds(5)), "\(process.screen)")
            let screen = flat(process.screen)
            #expect(screen.contains("Verification code. Type 6 digits."), "\(screen)")
            #expect(!screen.contains("Control R"), "terse, as the file says")
            #expect(screen.contains(":2: rate must be a number from 80 to 450, not 1000; ignored"))
            #expect(!screen.contains("did not answer"))
            #expect(screen.components(separatedBy: ":2: rate").count == 2)
            process.type("123456")
            #expect(await process.waitForExit(deadline: .seconds(10)) == .exited(0))
            #expect(process.standardOutput == "123456\n")
        }
    }

    /// What is not a regular file: a FIFO no program writes, one whose writer never writes, one whose
    /// writer wrote a valid configuration and holds it open, a device that never ends, the terminal
    /// itself. Each is refused at once with why; none is read (the terminal's keys stay the prompt's).
    enum NotAFile: String, CaseIterable, CustomTestStringConvertible {
        case fifoWithoutWriter, fifoWhoseWriterNeverWrites, fifoWithAWaitingWriter, endlessDevice, theTerminal
        var testDescription: String { rawValue }

        var reason: String {
            switch self {
            case .fifoWithoutWriter, .fifoWhoseWriterNeverWrites, .fifoWithAWaitingWriter:
                "is a FIFO, not a regular file; ignored"
            case .endlessDevice, .theTerminal: "is a device, not a regular file; ignored"
            }
        }
    }

    @Test(arguments: NotAFile.allCases)
    func anythingButARegularFileIsRefusedAtOnce(kind: NotAFile) async throws {
        let fifo = NSTemporaryDirectory() + "/otc-config-fifo-\(UUID().uuidString)"
        defer { unlink(fifo) }
        var writer: Int32 = -1
        defer { if writer >= 0 { close(writer) } }
        let path: String
        switch kind {
        case .fifoWithoutWriter, .fifoWhoseWriterNeverWrites, .fifoWithAWaitingWriter:
            #expect(mkfifo(fifo, 0o600) == 0)
            path = fifo
            if kind != .fifoWithoutWriter { writer = open(fifo, O_RDWR | O_NONBLOCK) }
            if kind == .fifoWithAWaitingWriter { _ = write(writer, "length = 4\n", 11) }
        case .endlessDevice: path = "/dev/zero"
        case .theTerminal: path = "/dev/tty"
        }
        let run = try await PromptRun([], environment: PromptRun.environment(["OTC_PROMPT_CONFIG": path]), ready: nil)
        #expect(await run.process.waitForScreen(containing: "Verification code", deadline: .seconds(5)))
        let name = path.split(separator: "/").last.map(String.init) ?? path
        // Refused for what it is, not waited for until the read's 1 s deadline (how soon: make bench).
        #expect(flat(run.process.screen).contains("\(name): \(kind.reason)"), "\(run.process.screen)")
        #expect(!flat(run.process.screen).contains("did not answer within"), "\(run.process.screen)")
        run.type("123456")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "123456\n")
    }
}

/// The screen's words with every run of blanks and line breaks as one space: a notice wrapped at the
/// terminal's width reads as one line.
private func flat(_ screen: String) -> String {
    screen.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
}
