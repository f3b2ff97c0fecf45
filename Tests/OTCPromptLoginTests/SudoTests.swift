import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

extension RealClientTests {
    /// `sudo -A -k true` run by a throwaway user, with otc-prompt as SUDO_ASKPASS.
    @Suite struct Sudo {
        let scratch: ScratchDirectory
        let user: ThrowawayUser
        /// Where the wrapper's speech log goes: the user's home, since the askpass runs as the user.
        let speechLog: String

        init() throws {
            scratch = try ScratchDirectory()
            user = try ThrowawayUser(in: scratch, sudo: true)
            speechLog = user.home + "/speech.jsonl"
        }

        /// sudo run as the user; extra sudo options (such as -p PROMPT) go before the command.
        func sudo(askpass: String, options: [String] = [], environment: [String: String] = [:]) throws -> ClientRun {
            try ClientRun(
                user.command(["/usr/bin/sudo", "-A", "-k"] + options + ["/bin/true"]),
                environment: ClientRun.environment(
                    ["SUDO_ASKPASS": askpass, "HOME": user.home].merging(environment) { $1 }))
        }

        @Test func thePasswordTypedAtTheWrapperLetsSudoRun() throws {
            let run = try sudo(askpass: try Askpass.wrapper(in: scratch, speechLog: speechLog))
            run.answer(user.password + "\r", after: "password for \(user.name)")
            #expect(run.exit() == .exited(0), "screen: \(run.visibleScreen)")
            #expect(run.terminalRestored)
            let spoken = SpokenLine.transcript(speechLog)
            #expect(spoken.contains("password for \(user.name)"), "spoken: \(spoken)")
            #expect(!spoken.contains(user.password), "the password was spoken: \(spoken)")
            #expect(!run.visibleScreen.contains(user.password), "the password was shown: \(run.visibleScreen)")
        }

        @Test func theBareBinaryAsSudoAskpassFindsItsSettingsInTheConfigFile() throws {
            let config = try Askpass.quietConfig(in: scratch)
            let run = try sudo(askpass: Askpass.binary, environment: ["OTC_PROMPT_CONFIG": config])
            run.answer(user.password + "\r", after: "password for \(user.name)")
            #expect(run.exit() == .exited(0), "screen: \(run.visibleScreen)")
            #expect(run.terminalRestored)
            #expect(!run.visibleScreen.contains(user.password))
        }

        @Test func aWrongPasswordThenTheRightOne() throws {
            let run = try sudo(askpass: try Askpass.wrapper(in: scratch, speechLog: speechLog))
            run.answer("wrong-password\r", after: "password for \(user.name)")
            #expect(run.waitForScreen("Sorry, try again."), "screen: \(run.visibleScreen)")
            run.answer(user.password + "\r", after: "password for \(user.name)", call: 2, speechLog: speechLog)
            #expect(run.exit() == .exited(0), "screen: \(run.visibleScreen)")
            #expect(run.terminalRestored)
            let spoken = SpokenLine.transcript(speechLog)
            #expect(!spoken.contains(user.password) && !spoken.contains("wrong-password"), "spoken: \(spoken)")
        }

        /// Issue 13 point 3: the second call, moments after the first, starts by saying the answer was refused.
        @Test(.disabled("waiting for issue 13 point 3"))
        func aRetryIsSaidAloudBeforeTheQuestion() throws {
            let runtime = user.home + "/runtime"
            let run = try sudo(
                askpass: try Askpass.wrapper(in: scratch, speechLog: speechLog),
                environment: ["XDG_RUNTIME_DIR": try userDirectory(runtime)])
            run.answer("wrong-password\r", after: "password for \(user.name)")
            run.answer(user.password + "\r", after: "password for \(user.name)", call: 2, speechLog: speechLog)
            #expect(run.exit() == .exited(0))
            let lines = SpokenLine.read(speechLog).map { $0.text.lowercased() }
            let questions = lines.indices.filter { lines[$0].contains("password for \(user.name)") }
            try #require(questions.count >= 2, "spoken: \(lines)")
            let beforeTheFirst = lines[..<questions[0]].joined(separator: " ")
            let beforeTheSecond = lines[questions[0] + 1..<questions[1]].joined(separator: " ")
            let saysRefused = { (text: String) in
                ["not accepted", "rejected", "refused", "wrong", "try again"].contains { text.contains($0) }
            }
            #expect(saysRefused(beforeTheSecond), "spoken: \(lines)")
            #expect(!saysRefused(beforeTheFirst), "spoken: \(lines)")
            // The record that made this possible is private and holds no secret.
            let record = try FileManager.default.contentsOfDirectory(atPath: runtime)
            #expect(!record.isEmpty, "nothing was recorded under XDG_RUNTIME_DIR")
            for name in record {
                var information = stat()
                lstat(runtime + "/" + name, &information)
                #expect(information.st_mode & 0o077 == 0, "\(name) is open to others")
            }
            let everything = try runCommand(["/bin/grep", "-rl", "-e", user.password, "-e", "wrong-password", runtime])
            #expect(everything.output.isEmpty, "a password was recorded: \(everything.output)")
        }

        /// Issue 13 point 3: "no audio device" is said once per login session, not on every call.
        @Test(.disabled("waiting for issue 13 point 3"))
        func theNoAudioNoticeIsShownOncePerLoginSession() throws {
            let runtime = try userDirectory(user.home + "/runtime")
            let notice = "no audio device"
            var seen: [Bool] = []
            for _ in 0..<2 {
                // No config file: the default speech (espeak-ng), and no audio server to play it.
                let run = try sudo(askpass: Askpass.binary, environment: ["XDG_RUNTIME_DIR": runtime])
                run.answer(user.password + "\r", after: "password for \(user.name)")
                #expect(run.exit() == .exited(0), "screen: \(run.visibleScreen)")
                seen.append(run.visibleScreen.contains(notice))
            }
            #expect(seen == [true, false], "notice shown on the calls: \(seen)")
        }

        /// A directory owned by the throwaway user (mode 0700), as a login session's XDG_RUNTIME_DIR is.
        func userDirectory(_ path: String) throws -> String {
            guard mkdir(path, 0o700) == 0, chown(path, user.userID, user.groupID) == 0 else {
                throw HarnessError("mkdir \(path)")
            }
            return path
        }

        @Test func escapeAtTheAskpassGivesSudoNoPassword() throws {
            let run = try sudo(askpass: try Askpass.wrapper(in: scratch, speechLog: speechLog))
            run.answer("\u{1b}", after: "password for \(user.name)")
            #expect(run.exit() == .exited(1), "screen: \(run.visibleScreen)")
            #expect(run.terminalRestored)
        }
    }
}
