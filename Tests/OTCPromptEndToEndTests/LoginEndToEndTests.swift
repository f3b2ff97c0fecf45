import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// The prompt inside logins and scripts: --check, --timeout, askpass, --stdin, preferences.
@Suite(.runsPrograms)
struct LoginEndToEndTests {
    /// A check that accepts only 123456 and explains a rejection on stderr.
    static let acceptsOnly123456 = #"read c; [ "$c" = 123456 ] || { echo wrong code >&2; exit 1; }"#

    @Test func checkRejectsThenAccepts() async throws {
        let run = try await PromptRun(["--check", Self.acceptsOnly123456])
        run.type("111111")
        #expect(await run.waitForEvent("check-failed"))
        let failed = try #require(await run.logEntries().first { $0.event == "check-failed" })
        #expect(failed.text.contains("wrong code"))
        #expect(failed.text.contains("2"))
        run.type("123456")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "123456\n")
        #expect(run.terminalRestored)
    }

    @Test func nextKeyAfterARejectionStartsANewCode() async throws {
        let run = try await PromptRun(["--check", Self.acceptsOnly123456])
        run.type("999999")
        #expect(await run.waitForEvent("check-failed"))
        run.type("1")
        run.type("23456")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "123456\n")
    }

    @Test func attemptsExhaustedExit1() async throws {
        let run = try await PromptRun(["--check", "exit 1", "--attempts", "2"])
        run.type("111111")
        #expect(await run.waitForEvent("check-failed"))
        run.type("222222")
        #expect(await run.exit() == .exited(1))
        #expect(run.process.standardOutput == "")
        #expect(run.terminalRestored)
    }

    @Test func hungCheckIsKilledAndCountsAsRejection() async throws {
        let run = try await PromptRun(["--check", "sleep 60", "--check-timeout", "1", "--attempts", "1"])
        run.type("123456")
        #expect(await run.waitForEvent("checking", deadline: .seconds(5)))
        #expect(await run.exit(deadline: .seconds(10)) == .exited(1))
        #expect(await run.logEntries().contains { $0.event == "check-failed" })
    }

    @Test func verdictOfACheckThatClosedItsStderrArrivesWhenItExits() async throws {
        // Nothing is left to read once stderr is closed: only the exit itself can wake the prompt,
        // which must not wait for the 60 s --check-timeout.
        let run = try await PromptRun([
            "--check", "exec 2>&-; sleep 0.3; exit 1", "--check-timeout", "60", "--attempts", "1",
        ])
        run.type("123456")
        #expect(await run.exit(deadline: .seconds(15)) == .exited(1))
    }

    @Test func aCheckIsHeardEvenWhenSIGCHLDWasIgnoredByTheParent() async throws {
        let logPath = NSTemporaryDirectory() + "/otc-e2e-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: logPath) }
        let process = try PseudoTerminalProcess(
            executable: "/usr/bin/perl",
            arguments: [
                "-e", "$SIG{CHLD} = 'IGNORE'; exec @ARGV or die", PromptRun.binary, "--speech", "none",
                "--speech-log", logPath, "--check", "exec 2>&-; sleep 0.3; exit 1", "--check-timeout", "60",
                "--attempts", "1",
            ], environment: PromptRun.environment())
        #expect(await process.waitForScreen(containing: "Verification code", deadline: .seconds(10)))
        process.type("123456")
        #expect(await process.waitForExit(deadline: .seconds(15)) == .exited(1))
    }

    @Test func standardInputCodeIsCheckedToo() async throws {
        for (check, status, output) in [("read c; [ \"$c\" = 123456 ]", Int32(0), "123456\n"), ("exit 1", 1, "")] {
            let process = try PseudoTerminalProcess(
                executable: "/bin/sh",
                arguments: ["-c", "echo 123456 | \"$0\" --stdin --check \"$1\"", PromptRun.binary, check],
                environment: PromptRun.environment(), terminal: false)
            #expect(await process.waitForExit(deadline: .seconds(10)) == .exited(status))
            #expect(process.standardOutput == output)
        }
    }

    @Test func codeNeverReachesTheCheckArguments() async throws {
        let argsFile = NSTemporaryDirectory() + "/otc-check-args-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: argsFile) }
        let run = try await PromptRun([
            "--check", "cat /proc/$$/cmdline /proc/$$/environ > \(argsFile); cat >/dev/null",
        ])
        run.type("654321")
        #expect(await run.exit() == .exited(0))
        let seen = try String(contentsOfFile: argsFile, encoding: .isoLatin1)
        #expect(!seen.contains("654321"))
    }

    @Test func timeoutExits124WithTheTerminalRestored() async throws {
        let run = try await PromptRun(["--timeout", "1"])
        run.type("12")
        #expect(await run.exit(deadline: .seconds(10)) == .exited(124))
        #expect(run.process.standardOutput == "")
        #expect(run.terminalRestored)
        #expect(await run.logEntries().last?.event == "timeout")
    }

    @Test func controlTSaysTheTimeLeft() async throws {
        let run = try await PromptRun(["--timeout", "100"])
        run.type([0x14])
        #expect(await run.waitForEvent("time-left"))
        let said = try #require(await run.logEntries().first { $0.event == "time-left" })
        #expect(said.text.contains("second") || said.text.contains("minute"))
        run.type([0x03])
        #expect(await run.exit() == .exited(130))
    }

    /// As sudo -A runs it: the prompt is the only argument, so nothing else can be passed (the
    /// speech comes from the config file here).
    @Test func sudoAskpassWithOnlyThePromptIsDetected() async throws {
        let config = NSTemporaryDirectory() + "/otc-config-\(UUID().uuidString)"
        try "speech = \"text\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let environment = PromptRun.environment(["SUDO_ASKPASS": PromptRun.binary, "OTC_PROMPT_CONFIG": config])
        let process = try PseudoTerminalProcess(
            executable: PromptRun.binary, arguments: ["[sudo] password for joe: "], environment: environment)
        #expect(await process.waitForScreen(containing: "Secret text", deadline: .seconds(10)))
        process.type("pw 1\r")
        #expect(await process.waitForExit(deadline: .seconds(10)) == .exited(0))
        #expect(process.standardOutput == "pw 1\n")
    }

    @Test func optionsMeanAPersonIsCallingEvenWithAskpassExported() async throws {
        let environment = PromptRun.environment(["SUDO_ASKPASS": PromptRun.binary])
        let run = try await PromptRun(
            ["-n", "4", "Password from the bank letter:"], environment: environment, ready: "bank")
        #expect(await run.logEntries(atLeast: 1).first?.text.contains("Type 4 digits.") == true)
        run.type("1234")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "1234\n")
    }

    @Test func askpassCodePromptBecomesTheLabel() async throws {
        let environment = PromptRun.environment(["SSH_ASKPASS": PromptRun.binary, "SSH_ASKPASS_REQUIRE": "force"])
        let run = try await PromptRun(
            ["--askpass", "(joe@host) Verification code: "], environment: environment, ready: "Verification code")
        let prompt = try #require(await run.logEntries(atLeast: 1).first)
        // What to type first; where it goes is drawn above the field and said on Ctrl-R.
        #expect(prompt.text.hasPrefix("Verification code. Type 6 digits."), "\(prompt.text)")
        #expect(!prompt.text.contains("joe@host"), "\(prompt.text)")
        #expect(prompt.text.contains("Type 6 digits."))
        run.type("424242")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "424242\n")
    }

    @Test func askpassPasswordPromptIsAMaskedFreeTextField() async throws {
        let environment = PromptRun.environment(["SUDO_ASKPASS": PromptRun.binary])
        let run = try await PromptRun(
            ["--askpass", "[sudo] password for joe: "], environment: environment, ready: "password")
        run.type("correct horse?\r")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "correct horse?\n")
        for entry in await run.logEntries() { #expect(!entry.text.contains("horse"), "leaked: \(entry)") }
        #expect(!visibleText(run.process.screen).contains("horse"))
    }

    @Test func askpassConfirmationYes() async throws {
        let environment = PromptRun.environment(["SSH_ASKPASS": PromptRun.binary, "SSH_ASKPASS_PROMPT": "confirm"])
        let run = try await PromptRun(
            ["--askpass", "Allow use of key id_ed25519?"], environment: environment, ready: "Allow use")
        await run.waitPastTheGrace()
        run.type("yes\r")
        #expect(await run.exit() == .exited(0), "\(run.process.screen) \(run.log)")
    }

    @Test func askpassConfirmationNo() async throws {
        let environment = PromptRun.environment(["SSH_ASKPASS": PromptRun.binary, "SSH_ASKPASS_PROMPT": "confirm"])
        let run = try await PromptRun(
            ["--askpass", "Allow use of key id_ed25519?"], environment: environment, ready: "Allow use")
        await run.waitPastTheGrace()
        run.type("no\r")
        #expect(await run.exit() == .exited(1))
        #expect(run.process.standardOutput == "")
    }

    /// Runs `otc-prompt --stdin OPTIONS` with `input` on stdin (a file, kept until the process
    /// exits) and no terminal; returns how it exited and the process, for its output.
    private func runWithStandardInput(_ input: String, options: String = "") async throws -> (
        status: OTCPromptTestSupport.ExitStatus?, process: PseudoTerminalProcess
    ) {
        let path = NSTemporaryDirectory() + "/otc-stdin-\(UUID().uuidString)"
        try input.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = try PseudoTerminalProcess(
            executable: "/bin/sh",
            arguments: ["-c", "exec \"$0\" --stdin \(options) < \"$1\"", PromptRun.binary, path],
            environment: PromptRun.environment(), terminal: false)
        return (await process.waitForExit(deadline: .seconds(10)), process)
    }

    @Test func standardInputValidAndInvalid() async throws {
        for (input, status, output) in [("Your code: 123 456\n", Int32(0), "123456\n"), ("12345\n", 65, "")] {
            let (exit, process) = try await runWithStandardInput(input)
            #expect(exit == .exited(status))
            #expect(process.standardOutput == output)
            if status != 0 { #expect(process.standardErrorText.contains("no valid 6-digit code")) }
        }
    }

    /// A secret is never changed silently; bytes that are not UTF-8 are refused.
    @Test func standardInputThatIsNotUTF8IsRefused() async throws {
        let path = NSTemporaryDirectory() + "/otc-stdin-\(UUID().uuidString)"
        #expect(FileManager.default.createFile(atPath: path, contents: Data([0x61, 0x62, 0xFF, 0x63, 0x64, 0x0A])))
        defer { try? FileManager.default.removeItem(atPath: path) }
        for options in ["--charset any", ""] {
            let process = try PseudoTerminalProcess(
                executable: "/bin/sh",
                arguments: ["-c", "exec \"$0\" --stdin \(options) < \"$1\"", PromptRun.binary, path],
                environment: PromptRun.environment(), terminal: false)
            #expect(await process.waitForExit(deadline: .seconds(10)) == .exited(65))
            #expect(process.standardOutput == "")
            #expect(process.standardErrorText.contains("not UTF-8"))
        }
    }

    @Test func standardInputFreeTextIsTheWholeLine() async throws {
        for (input, status, output) in [("correct horse 9!\n", Int32(0), "correct horse 9!\n"), ("\n", 65, "")] {
            let (exit, process) = try await runWithStandardInput(input, options: "--charset any")
            #expect(exit == .exited(status))
            #expect(process.standardOutput == output)
            if status != 0 { #expect(process.standardErrorText.contains("no valid secret")) }
        }
    }

    @Test func configFileSetsTheLanguage() async throws {
        let path = NSTemporaryDirectory() + "/otc-config-\(UUID().uuidString)"
        try "lang = \"pt\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try await PromptRun(
            [], environment: PromptRun.environment(["OTC_PROMPT_CONFIG": path]), ready: "Código")
        run.type("123456")
        #expect(await run.exit() == .exited(0))
        #expect(await run.logEntries().first?.text.hasPrefix("Código de verificação") == true)
    }

    @Test func malformedConfigFileIsReportedAndIgnored() async throws {
        let path = NSTemporaryDirectory() + "/otc-config-\(UUID().uuidString)"
        try "verbosity = \"terse\"\nrate = = 3\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try await PromptRun([], environment: PromptRun.environment(["OTC_PROMPT_CONFIG": path]))
        #expect(await run.process.waitForScreen(containing: ":2: rate = =", deadline: .seconds(5)))
        run.type("123456")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "123456\n")
    }
}
