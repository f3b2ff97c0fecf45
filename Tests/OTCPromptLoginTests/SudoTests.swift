import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

extension RealClientTests {
    /// `sudo -A -k true` run by a throwaway user, with otc-prompt as SUDO_ASKPASS.
    @Suite(.serialized) struct Sudo {
        let scratch: ScratchDirectory
        let user: ThrowawayUser
        /// Where the wrapper's speech log goes: the user's home, since the askpass runs as the user.
        let speechLog: String
        /// The user's XDG_RUNTIME_DIR, where otc-prompt keeps its record of recent questions.
        let runtime: String

        init() throws {
            scratch = try ScratchDirectory()
            user = try ThrowawayUser(in: scratch, sudo: true)
            speechLog = user.home + "/speech.jsonl"
            runtime = try scratch.runtimeDirectory(owner: user.userID, group: user.groupID)
        }

        /// sudo run as the user; extra sudo options (such as -p PROMPT) go before the command.
        func sudo(askpass: String, options: [String] = [], environment: [String: String] = [:]) throws -> ClientRun {
            try ClientRun(
                user.command(["/usr/bin/sudo", "-A", "-k"] + options + ["/bin/true"]),
                environment: ClientRun.environment(
                    ["SUDO_ASKPASS": askpass, "HOME": user.home, "XDG_RUNTIME_DIR": runtime].merging(environment) { $1 }
                ))
        }

        @Test func thePasswordTypedAtTheWrapperLetsSudoRun() async throws {
            let run = try sudo(askpass: try Askpass.wrapper(in: scratch, speechLog: speechLog))
            await run.answer(user.password + "\r", after: "Sudo password")
            #expect(await run.exit() == .exited(0), "screen: \(run.visibleScreen)")
            #expect(run.terminalRestored)
            let spoken = SpokenLine.transcript(speechLog)
            // The question first; the user's own name, which tells them nothing, only on Ctrl-R. sudo's line is shown.
            let opening = SpokenLine.read(speechLog).first { $0.event == "prompt" }?.text ?? ""
            #expect(opening.hasPrefix("Sudo password. Type it, then Enter."), "spoken: \(spoken)")
            #expect(!opening.contains(user.name), "spoken: \(spoken)")
            #expect(run.visibleScreen.contains("password for \(user.name)"), "screen: \(run.visibleScreen)")
            #expect(!spoken.contains(user.password), "the password was spoken: \(spoken)")
            #expect(!run.visibleScreen.contains(user.password), "the password was shown: \(run.visibleScreen)")
        }

        @Test func theBareBinaryAsSudoAskpassFindsItsSettingsInTheConfigFile() async throws {
            let config = try Askpass.quietConfig(in: scratch)
            let run = try sudo(askpass: Askpass.binary, environment: ["OTC_PROMPT_CONFIG": config])
            await run.answer(user.password + "\r", after: "Sudo password")
            #expect(await run.exit() == .exited(0), "screen: \(run.visibleScreen)")
            #expect(run.terminalRestored)
            #expect(!run.visibleScreen.contains(user.password))
        }

        @Test func aWrongPasswordThenTheRightOne() async throws {
            let run = try sudo(askpass: try Askpass.wrapper(in: scratch, speechLog: speechLog))
            await run.answer("wrong-password\r", after: "Sudo password")
            #expect(await run.waitForScreen("Sorry, try again."), "screen: \(run.visibleScreen)")
            await run.answer(user.password + "\r", after: "Sudo password", call: 2, speechLog: speechLog)
            #expect(await run.exit() == .exited(0), "screen: \(run.visibleScreen)")
            #expect(run.terminalRestored)
            let spoken = SpokenLine.transcript(speechLog)
            #expect(!spoken.contains(user.password) && !spoken.contains("wrong-password"), "spoken: \(spoken)")
        }

        /// The second call, moments after the first, starts by saying the answer was refused.
        @Test
        func aRetryIsSaidAloudBeforeTheQuestion() async throws {
            let run = try sudo(askpass: try Askpass.wrapper(in: scratch, speechLog: speechLog))
            await run.answer("wrong-password\r", after: "Sudo password")
            await run.answer(user.password + "\r", after: "Sudo password", call: 2, speechLog: speechLog)
            #expect(await run.exit() == .exited(0))
            let said = SpokenLine.saidBefore("Sudo password", in: speechLog)
            try #require(said.count >= 2, "spoken: \(SpokenLine.transcript(speechLog))")
            #expect(SpokenLine.saysRefused(said[1]), "said before the second question: \(said[1])")
            #expect(!SpokenLine.saysRefused(said[0]), "said before the first question: \(said[0])")
            // The record that made this possible is private and holds no secret.
            let record = try FileManager.default.contentsOfDirectory(atPath: runtime)
            #expect(!record.isEmpty, "nothing was recorded under XDG_RUNTIME_DIR")
            for name in record {
                var information = stat()
                lstat(runtime + "/" + name, &information)
                #expect(information.st_mode & 0o077 == 0, "\(name) is open to others")
            }
            let everything = try await runCommand([
                "/bin/grep", "-rl", "-e", user.password, "-e", "wrong-password", runtime,
            ])
            #expect(everything.output.isEmpty, "a password was recorded: \(everything.output)")
        }

        /// "no audio device" is said once per login session, not on every call: two sudo
        /// commands typed in one session (one terminal), each asking for the password.
        @Test
        func theNoAudioNoticeIsShownOncePerLoginSession() async throws {
            // The default speech (espeak-ng), and no audio server to play it.
            let askpass = try Askpass.wrapper(in: scratch, speechLog: speechLog, speech: "espeak")
            let run = try ClientRun(
                user.command(["/bin/sh", "-c", "sudo -A -k /bin/true && sudo -A -k /bin/true"]),
                environment: ClientRun.environment([
                    "SUDO_ASKPASS": askpass, "HOME": user.home, "XDG_RUNTIME_DIR": runtime,
                ]))
            await run.answer(user.password + "\r", after: "Sudo password")
            await run.answer(user.password + "\r", after: "Sudo password", call: 2, speechLog: speechLog)
            #expect(await run.exit() == .exited(0), "screen: \(run.visibleScreen)")
            let shown = run.visibleScreen.components(separatedBy: "no audio device").count - 1
            #expect(shown == 1, "the notice was shown \(shown) times: \(run.visibleScreen)")
        }

        /// Ctrl-R before anything is typed says sudo's own words, with the user's name; an account other than the
        /// user's own (the prompt sudo's rootpw gives, "[sudo] password for root: ") is named in the question itself.
        @Test func theAccountIsNamedOnRequestOrWhereItIsNotTheUsersOwn() async throws {
            let askpass = try Askpass.wrapper(in: scratch, speechLog: speechLog)
            let own = try sudo(askpass: askpass)
            #expect(await own.waitForQuestion("Sudo password", speechLog: speechLog), "screen: \(own.visibleScreen)")
            #expect(await own.readBack("password for \(user.name)", untilSaid: 1, speechLog: speechLog))
            own.process.type("\u{1b}")
            #expect(await own.exit() == .exited(1), "screen: \(own.visibleScreen)")
            let root = try sudo(askpass: askpass, options: ["-p", "[sudo] password for root: "])
            #expect(await root.waitForQuestion("Sudo password for root", speechLog: speechLog))
            root.process.type("\u{1b}")
            #expect(await root.exit() == .exited(1), "screen: \(root.visibleScreen)")
        }

        @Test func escapeAtTheAskpassGivesSudoNoPassword() async throws {
            let run = try sudo(askpass: try Askpass.wrapper(in: scratch, speechLog: speechLog))
            await run.answer("\u{1b}", after: "Sudo password")
            #expect(await run.exit() == .exited(1), "screen: \(run.visibleScreen)")
            #expect(run.terminalRestored)
        }
    }
}
