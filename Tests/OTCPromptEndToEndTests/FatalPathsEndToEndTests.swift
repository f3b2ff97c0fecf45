import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// The limits a login can set (`ulimit -f`, `-n`) and the signals that end a process at once: none leaves the
/// terminal raw, and none hands the prompt's screen to a library. Each run is the real binary on a pty, started
/// through prlimit, which sets the limit and executes it in the same process.
@Suite(.runsPrograms) struct FatalPathsEndToEndTests {
    static let prlimit = "/usr/bin/prlimit"

    /// Whether the terminal was left as it was found and bracketed paste was turned off after it was turned on.
    static func restored(_ process: PseudoTerminalProcess) -> Bool {
        let screen = process.screen
        guard let on = screen.range(of: "\u{1B}[?2004h", options: .backwards) else { return true }
        let attributes = process.slaveAttributes()
        return sameAttributes(process.attributesAtStart, attributes)
            && attributes.c_lflag & tcflag_t(ECHO | ICANON) == tcflag_t(ECHO | ICANON)
            && screen[on.upperBound...].contains("\u{1B}[?2004l")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: prlimit), "needs prlimit (util-linux)"))
    func aSpeechLogPastTheFileSizeLimitIsANoticeAndTheTerminalIsRestored() async throws {
        let directory = PromptRun.privateDirectory()
        let log = directory + "/speech.log"
        let process = try PseudoTerminalProcess(
            executable: Self.prlimit,
            arguments: ["--fsize=300", "--", PromptRun.binary, "--speech", "none", "--speech-log", log],
            environment: PromptRun.environment())
        #expect(await process.waitForScreen(containing: "Verification code", deadline: .seconds(30)))
        for digit in "123456" {
            process.type(String(digit))
            try await Task.sleep(for: .milliseconds(30))
        }
        #expect(await process.waitForExit(deadline: .seconds(20)) == .exited(0), "screen: \(process.screen)")
        #expect(process.screen.contains("cannot be written"), "screen: \(process.screen)")
        #expect(process.standardOutput == "123456\n")
        #expect(Self.restored(process), "screen: \(process.screen)")
    }

    /// Each fatal signal, sent to the running prompt: the last-resort handler restores the terminal (the saved
    /// attributes, bracketed paste off) and the process still ends as that signal.
    @Test(arguments: [SIGABRT, SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGXCPU])
    func aFatalSignalRestoresTheTerminalAndStillEndsTheProcess(signal: Int32) async throws {
        let process = try PseudoTerminalProcess(
            executable: PromptRun.binary, arguments: ["--speech", "none"], environment: PromptRun.environment())
        #expect(await process.waitForScreen(containing: "Verification code", deadline: .seconds(30)))
        process.type("12")
        try await Task.sleep(for: .milliseconds(200))
        process.sendSignal(signal)
        #expect(await process.waitForExit(deadline: .seconds(20)) == .signaled(signal))
        #expect(Self.restored(process), "screen: \(process.screen)")
    }

    /// Out of descriptors, the config file (mask = true, speech = "none") may not be opened: the run is still
    /// masked and silent, and no library's complaint (libpulse's "socket(): Too many open files", espeak-ng's
    /// "Error processing file") reaches the screen. Several runs: which open fails first depends on the threads.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: prlimit), "needs prlimit (util-linux)"))
    func outOfDescriptorsTheConfigsPrivacyHoldsAndNoLibraryWritesOnTheScreen() async throws {
        let directory = PromptRun.privateDirectory()
        let config = directory + "/config"
        try "mask = true\nspeech = \"none\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        for _ in 0..<6 {
            let process = try PseudoTerminalProcess(
                executable: Self.prlimit, arguments: ["--nofile=8", "--", PromptRun.binary],
                environment: PromptRun.environment(["OTC_PROMPT_CONFIG": config]))
            let asked = await process.wait(deadline: .seconds(30)) {
                $0.screen.contains("Verification code") || $0.hasExited
            }
            #expect(asked, "screen: \(process.screen)")
            // On a loaded machine the libraries' threads may take the last descriptors before the terminal is
            // opened: then there is no prompt at all, said as such, which shows nothing either.
            if !process.hasExited {
                try await Task.sleep(for: .milliseconds(300))
                process.type("123456")
                #expect(await process.waitForExit(deadline: .seconds(20)) == .exited(0), "screen: \(process.screen)")
            }
            let screen = visibleText(process.screen)
            #expect(!screen.contains("123"), "the code was shown: \(screen)")
            // What libpulse, its mainloop and espeak-ng print when they run out of descriptors.
            let foreign = ["socket():", "memfd", "wakeup pipe", "per-process limit", "Error processing file", "ALSA"]
            #expect(foreign.allSatisfy { !screen.contains($0) }, "a library wrote on the screen: \(screen)")
            #expect(Self.restored(process))
        }
    }
}
