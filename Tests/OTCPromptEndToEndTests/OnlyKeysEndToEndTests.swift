import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// Terminal replies never fill the field; kitty's keys still cancel.
@Suite(.runsPrograms, .serialized)
struct OnlyKeysEndToEndTests {
    @Test func terminalRepliesNeverBecomeDigits() async throws {
        let run = try await PromptRun([])
        for reply in [
            "\u{1B}]11;rgb:1234/5678/9abc\u{1B}\\", "\u{1B}P1$r0;1;4m\u{1B}\\", "\u{1B}_Gi=31;OK\u{1B}\\",
            "\u{1B}[" + String(repeating: "1;", count: 40) + "5m",
        ] {
            run.type(reply)
        }
        // A barrier: the read-back key comes after the replies, so once it is said they were all read.
        run.type([0x12])
        #expect(await run.waitForEvent("readback"))
        let entries = await run.logEntries()
        #expect(!entries.contains { $0.event == "digit" }, "\(entries)")
        run.type("654321")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "654321\n")
    }

    @Test(arguments: [("\u{1B}[27u", Int32(130)), ("\u{1B}[99;5u", 130)])
    func kittyKeysCancel(sequence: String, status: Int32) async throws {
        let run = try await PromptRun([])
        run.type("12" + sequence)
        #expect(await run.exit() == .exited(status))
        #expect(run.terminalRestored)
    }
}

/// A check that cannot run ends the prompt with 69 and says why; no attempt used.
@Suite(.runsPrograms, .serialized)
struct CheckCouldNotRunEndToEndTests {
    @Test(arguments: [
        ("oathtool-that-is-not-installed --totp", "could not find the command"),
        ("kill -9 $$", "killed by signal 9"),
    ])
    func aCheckThatCannotRunIsNotARejection(command: String, said: String) async throws {
        let run = try await PromptRun(["--check", command, "--attempts", "3"])
        run.type("123456")
        #expect(await run.exit() == .exited(69))
        #expect(run.process.standardOutput == "")
        let entry = try #require(await run.logEntries().last)
        #expect(entry.event == "check-error")
        #expect(entry.text.contains(said), "\(entry.text)")
        #expect(await !run.logEntries().contains { $0.event == "check-failed" }, "not a rejection")
        #expect(run.terminalRestored)
    }
}
