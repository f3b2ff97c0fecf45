import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// In an askpass call the prompt is data. Hostile prompts, as sudo -p, a PAM challenge or
/// an ssh server can send them, through the binary as SUDO_ASKPASS and through both wrapper forms.
@Suite(.runsPrograms)
struct AskpassArgumentsEndToEndTests {
    /// A scratch directory with a config that makes speech text, and a file a hostile prompt tries to create.
    final class Scratch {
        let directory: String
        var trap: String { directory + "/pwned" }
        var config: String { directory + "/config" }

        init() throws {
            directory = NSTemporaryDirectory() + "/otc-hostile-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try "speech = \"text\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        }

        deinit { try? FileManager.default.removeItem(atPath: directory) }

        /// A wrapper script in the scratch directory that execs the prompt with `options` before "$@".
        func wrapper(_ options: String) throws -> String {
            let path = directory + "/otc-askpass-\(UUID().uuidString)"
            try writeExecutable("#!/bin/sh\nexec \"\(PromptRun.binary)\" \(options) \"$@\"\n", to: path)
            return path
        }
    }

    static func hostilePrompts(trap: String) -> [String] {
        [
            "--check=touch \(trap)", "--speech-log=\(trap)", "--audio-file=\(trap)", "--help", "-h", "--version",
            "--", "-n", "--askpass", "--check", "-- --check=touch \(trap)",
        ]
    }

    /// Runs `program PROMPT` as an askpass caller would (stdout a pipe), answers "pw" and checks that the
    /// prompt was only ever a label.
    private func answer(_ prompt: String, program: String, scratch: Scratch) async throws {
        let environment = PromptRun.environment([
            "SUDO_ASKPASS": PromptRun.binary, "OTC_PROMPT_CONFIG": scratch.config,
        ])
        let process = try PseudoTerminalProcess(executable: program, arguments: [prompt], environment: environment)
        let shown = await process.waitForScreen(containing: "Secret text", deadline: .seconds(10))
        #expect(shown, "no password field for \(prompt): \(process.screen)")
        process.type("pw\r")
        #expect(await process.waitForExit(deadline: .seconds(10)) == .exited(0), "\(prompt)")
        #expect(process.standardOutput == "pw\n", "\(prompt)")
        #expect(!FileManager.default.fileExists(atPath: scratch.trap), "\(prompt) acted as an option")
        #expect(!process.screen.contains("OVERVIEW"), "\(prompt) printed the help")
        #expect(sameAttributes(process.attributesAtStart, process.slaveAttributes()))
    }

    @Test func theOnlyArgumentOfAnAskpassCallIsNeverAnOption() async throws {
        let scratch = try Scratch()
        for prompt in Self.hostilePrompts(trap: scratch.trap) {
            try await answer(prompt, program: PromptRun.binary, scratch: scratch)
        }
    }

    @Test func theDocumentedWrapperPassesThePromptAfterDoubleDash() async throws {
        let scratch = try Scratch()
        let wrapper = try scratch.wrapper("--askpass --rate 320 --")
        for prompt in Self.hostilePrompts(trap: scratch.trap) {
            try await answer(prompt, program: wrapper, scratch: scratch)
        }
    }

    /// The wrapper an earlier user guide showed, without "--": the last argument after --askpass is the prompt.
    @Test func anOlderWrapperWithoutDoubleDashIsSafeToo() async throws {
        let scratch = try Scratch()
        let wrapper = try scratch.wrapper("--askpass --rate 320")
        for prompt in Self.hostilePrompts(trap: scratch.trap) {
            try await answer(prompt, program: wrapper, scratch: scratch)
        }
    }

    /// A person at a shell with SUDO_ASKPASS exported still gets the help: no caller reads a terminal.
    @Test func helpAtATerminalIsStillHelp() async throws {
        let process = try PseudoTerminalProcess(
            executable: "/bin/sh", arguments: ["-c", "exec \"$0\" --help >/dev/tty", PromptRun.binary],
            environment: PromptRun.environment(["SUDO_ASKPASS": PromptRun.binary]))
        #expect(await process.waitForExit(deadline: .seconds(10)) == .exited(0))
        #expect(process.screen.contains("Usage: otc-prompt"))
    }

    /// A person's shell with SUDO_ASKPASS and SSH_ASKPASS exported, as the docs suggest: an option that names a job
    /// does it when stdout is a file or a pipe the shell made (no masked field that waits), while the same argument
    /// from a caller that reads the answer itself stays a label (`theOnlyArgumentOfAnAskpassCallIsNeverAnOption`).
    @Test(arguments: [
        ("--version | cat", "0."), ("--help | head -n 1", "otc-prompt: "),
        ("--doctor > \"$1\"; cat \"$1\"", "Speech: "),
    ])
    func anOptionThatNamesAJobWinsOverTheAskpassVariables(command: String, printed: String) async throws {
        let scratch = try Scratch()
        let process = try PseudoTerminalProcess(
            executable: "/bin/sh",
            arguments: ["-c", "\"$0\" " + command, PromptRun.binary, scratch.directory + "/report"],
            environment: PromptRun.environment([
                "SUDO_ASKPASS": PromptRun.binary, "SSH_ASKPASS": PromptRun.binary, "OTC_PROMPT_CONFIG": scratch.config,
            ]))
        #expect(await process.waitForExit(deadline: .seconds(20)) == .exited(0), "screen: \(process.screen)")
        #expect(process.standardOutput.contains(printed), "\(command): \(process.standardOutput)")
        #expect(!process.screen.contains("Secret text"), "\(command) asked: \(process.screen)")
    }

    /// A shell that starts the pipeline's next command late (a loaded machine) still holds the pipe's read end when
    /// `otc-prompt --version` looks: here the parent keeps it 100 ms after `cat` has it. The version is printed.
    @Test func aPipelinesShellThatLetsThePipeGoLateIsNoCaller() async throws {
        let scratch = try Scratch()
        let process = try PseudoTerminalProcess(
            executable: "/usr/bin/python3",
            arguments: [
                "-c",
                """
                import os, subprocess, sys, time
                read, write = os.pipe()
                prompt = subprocess.Popen([sys.argv[1], "--version"], stdout=write)
                os.close(write)
                time.sleep(0.1)
                cat = subprocess.Popen(["/bin/cat"], stdin=read)
                time.sleep(0.1)
                os.close(read)
                sys.exit(prompt.wait() or cat.wait())
                """, PromptRun.binary,
            ],
            environment: PromptRun.environment([
                "SUDO_ASKPASS": PromptRun.binary, "SSH_ASKPASS": PromptRun.binary, "OTC_PROMPT_CONFIG": scratch.config,
            ]))
        #expect(await process.waitForExit(deadline: .seconds(20)) == .exited(0), "screen: \(process.screen)")
        #expect(process.standardOutput.contains("0."), "\(process.standardOutput)")
        #expect(!process.screen.contains("Secret text"), "asked: \(process.screen)")
    }

    @Test(arguments: ["--bad\u{1b}]0;owned\u{07}", "--placeholder=\u{1b}[2J", "--voice=\u{9b}31m"])
    func anErrorMessageNeverEchoesAControlCharacter(argument: String) async throws {
        let process = try PseudoTerminalProcess(
            executable: PromptRun.binary, arguments: [argument], environment: PromptRun.environment(),
            standardError: .pipe)
        let status = await process.waitForExit(deadline: .seconds(10))
        #expect(status == .exited(64) || status == .exited(74))
        let error = process.standardErrorText + process.screen
        #expect(!error.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B })
        if status == .exited(64) { #expect(error.contains("\\x")) }
    }
}
