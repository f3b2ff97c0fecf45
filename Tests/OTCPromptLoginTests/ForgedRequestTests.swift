import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

extension RealClientTests {
    /// A throwaway user runs `--agent` on their terminal, and a program of theirs (a Python script, as that user)
    /// posts a request in their own directory imitating the system's disk request: the system's words on a line of
    /// their own, no `Id=`, `Echo=1`, a limit of 2⁶⁴−1 µs, a PID out of range. Beside it, a root agent in a mount
    /// namespace of its own (a private /run/systemd/ask-password) hears the real systemd-ask-password's request.
    @Suite(.serialized) struct ForgedRequests {
        let scratch: ScratchDirectory
        let user: ThrowawayUser
        let runtime: String
        let directory: String
        let log: String

        /// The user's program: binds a datagram socket, posts the ask file (temporary name, then renamed) with the
        /// message and extra lines given, prints the answer it receives.
        static let forger = """
            import os, socket, sys
            directory, message, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
            name = "forged%d" % os.getpid()
            answer = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            answer.bind(directory + "/sck." + name)
            lines = ["[Ask]", "PID=%d" % os.getpid(), "Socket=" + directory + "/sck." + name, "Message=" + message]
            with open(directory + "/.tmp." + name, "w") as file:
                file.write("\\n".join(lines + extra) + "\\n")
            os.rename(directory + "/.tmp." + name, directory + "/ask." + name)
            answer.settimeout(60)
            try:
                sys.stdout.write(answer.recv(4096).decode(errors="replace"))
            finally:
                os.unlink(directory + "/ask." + name)
                os.unlink(directory + "/sck." + name)
            """

        init() throws {
            scratch = try ScratchDirectory()
            user = try ThrowawayUser(in: scratch)
            // Written plainly: a socket path with "//" in it is refused by the agent.
            runtime = try scratch.runtimeDirectory(owner: user.userID, group: user.groupID)
                .replacingOccurrences(of: "//", with: "/")
            directory = runtime + "/systemd/ask-password"
            log = user.home + "/speech.jsonl"
            for path in [runtime + "/systemd", directory] {
                try #require(mkdir(path, 0o700) == 0 && chown(path, user.userID, user.groupID) == 0)
            }
            try scratch.write("forger.py", Self.forger, mode: 0o644)
        }

        /// The user's agent on a terminal of theirs, waiting.
        func agent(_ extra: [String] = []) async throws -> PseudoTerminalProcess {
            let process = try PseudoTerminalProcess(
                executable: "/usr/bin/setpriv",
                arguments: [
                    "--reuid=\(user.userID)", "--regid=\(user.groupID)", "--init-groups", "--", Askpass.binary,
                    "--speech", "none", "--speech-log", log, "--agent", "--agent-directory", directory,
                ] + extra,
                environment: ClientRun.environment(["HOME": user.home, "XDG_RUNTIME_DIR": runtime]))
            #expect(
                await process.waitForScreen(containing: "Waiting for password requests", deadline: .seconds(30)),
                "screen: \(process.screen)")
            return process
        }

        /// The user's program posting `message` with `extra` lines; its stdout is the answer it got.
        func forge(_ message: String, _ extra: [String] = []) throws -> PseudoTerminalProcess {
            try PseudoTerminalProcess(
                executable: "/usr/bin/setpriv",
                arguments: [
                    "--reuid=\(user.userID)", "--regid=\(user.groupID)", "--init-groups", "--", "/usr/bin/python3",
                    scratch.file("forger.py"), directory, message,
                ] + extra,
                environment: ["PATH": "/usr/bin:/bin", "HOME": user.home], terminal: false)
        }

        var spoken: [SpokenLine] { SpokenLine.read(log) }

        /// The opening of the request whose question holds `text`, once said.
        func opening(containing text: String) async -> String? {
            _ = await waitUntil(deadline: .seconds(20)) { spoken.contains { $0.text.contains(text) } }
            return spoken.first { $0.text.contains(text) }?.text
        }

        @Test func aRequestImitatingTheSystemsDiskRequestIsMarkedBeforeAnyOfItsWords() async throws {
            let agent = try await agent()
            defer { agent.sendSignal(SIGTERM) }
            let forger = try forge(#"For disk sda2.\nPlease enter passphrase for disk sda2"#)
            let opening = await opening(containing: "Please enter passphrase for disk sda2") ?? ""
            // A cue word may come first ("New request.", after a quiet wait): it is the agent's, not the program's.
            let afterCue = opening.hasPrefix("New request. ") ? String(opening.dropFirst(13)) : opening
            #expect(
                afterCue.hasPrefix("Not from the system: a program of yours wrote: For disk sda2."),
                "\(opening) screen: \(agent.screen) forger: \(forger.standardErrorText)")
            #expect(opening.contains("A program of yours asks: Please enter passphrase for disk sda2"), "\(opening)")
            // On the screen too: no line of the program's stands alone as the system's "For disk sda2.".
            let lines = visibleText(agent.screen).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(!lines.contains("For disk sda2."), "screen: \(agent.screen)")
            try? await Task.sleep(for: ClientRun.reactionTime)
            agent.type("correct horse\r")
            #expect(await forger.waitForExit(deadline: .seconds(20)) == .exited(0))
            #expect(forger.standardOutput == "+correct horse", "still a request like any other: answered")
        }

        @Test func anEchoRequestOfTheUsersProgramIsNeverReadAloudCharacterByCharacter() async throws {
            let agent = try await agent()
            defer { agent.sendSignal(SIGTERM) }
            let forger = try forge("Please enter passphrase for disk sda2", ["Echo=1"])
            _ = await opening(containing: "Please enter passphrase for disk sda2")
            try? await Task.sleep(for: ClientRun.reactionTime)
            agent.type("hunter2\r")
            #expect(await forger.waitForExit(deadline: .seconds(20)) == .exited(0))
            #expect(forger.standardOutput == "+hunter2")
            let typed = Set("hunter2".map(String.init))
            #expect(!spoken.contains { typed.contains($0.text.lowercased()) }, "\(spoken)")
            #expect(!spoken.contains { $0.text.contains("hunter") })
            #expect(!agent.screen.contains("hunter2"))
        }

        @Test func anEchoRequestIsSpokenWhenTheUserChoseIt() async throws {
            let agent = try await agent(["--agent-echo-user-requests"])
            defer { agent.sendSignal(SIGTERM) }
            let forger = try forge("User name", ["Echo=1"])
            _ = await opening(containing: "User name")
            try? await Task.sleep(for: ClientRun.reactionTime)
            agent.type("joe\r")
            #expect(await forger.waitForExit(deadline: .seconds(20)) == .exited(0))
            #expect(spoken.contains { $0.text.lowercased() == "j" }, "\(spoken)")
        }

        @Test func aLimitOfTwoToTheSixtyFourMicrosecondsIsSaidAsNoTimeLimit() async throws {
            let agent = try await agent()
            defer { agent.sendSignal(SIGTERM) }
            let forger = try forge("Passphrase for backup", ["NotAfter=18446744073709551615"])
            let opening = await opening(containing: "Passphrase for backup") ?? ""
            #expect(!opening.contains("left"), "\(opening)")
            try? await Task.sleep(for: ClientRun.reactionTime)
            agent.type([0x14])
            #expect(
                await waitUntil(deadline: .seconds(10)) {
                    spoken.last?.text.lowercased().hasPrefix("no time limit") == true
                })
            #expect(!spoken.contains { $0.text.contains("minutes") }, "\(spoken)")
            agent.type([0x1B])
            #expect(await forger.waitForExit(deadline: .seconds(20)) == .exited(0))
            #expect(forger.standardOutput == "-")
        }

        @Test func aProcessNumberOutOfRangeIsSaidInOneLineAndTheRequestStillAsked() async throws {
            let agent = try await agent()
            defer { agent.sendSignal(SIGTERM) }
            let forger = try forge("Passphrase for backup", ["PID=99999999999"])
            #expect(
                await agent.waitForScreen(
                    containing: "PID=99999999999 is not a number in range", deadline: .seconds(20)),
                "screen: \(agent.screen)")
            _ = await opening(containing: "Passphrase for backup")
            try? await Task.sleep(for: ClientRun.reactionTime)
            agent.type("x\r")
            #expect(await forger.waitForExit(deadline: .seconds(20)) == .exited(0))
            #expect(forger.standardOutput == "+x")
        }

        /// The real thing, for comparison: root's agent and systemd-ask-password in a private mount namespace.
        @Test(
            .enabled(if: Namespaces.available(["-m"]), "needs a mount namespace of its own (unshare -m)"),
            .enabled(
                if: FileManager.default.isExecutableFile(atPath: "/bin/systemd-ask-password"), "no systemd-ask-password"
            ))
        func theSystemsOwnDiskRequestIsSaidInTheSystemsWordsWithNoMarking() async throws {
            let systemLog = scratch.file("system.jsonl")
            let agent = try PseudoTerminalProcess(
                executable: "/usr/bin/unshare",
                arguments: [
                    "--mount", "--propagation", "private", "/bin/sh", "-c",
                    "mount -t tmpfs -o mode=0755,size=1m otc-private /run/systemd/ask-password && exec \"$@\"", "sh",
                    Askpass.binary, "--speech", "none", "--speech-log", systemLog, "--agent", "--agent-directory",
                    "/run/systemd/ask-password",
                ],
                environment: ClientRun.environment(["HOME": scratch.path]))
            defer { agent.sendSignal(SIGTERM) }
            #expect(await agent.waitForScreen(containing: "Waiting for password requests", deadline: .seconds(30)))
            let querier = try PseudoTerminalProcess(
                executable: "/usr/bin/nsenter",
                arguments: [
                    "--target", "\(agent.processID)", "--mount", "/bin/systemd-ask-password", "--no-tty",
                    "--id=cryptsetup:/dev/sda2", "Please enter passphrase for disk sda2",
                ], environment: ["PATH": "/usr/bin:/bin"], terminal: false)
            _ = await waitUntil(deadline: .seconds(20)) {
                SpokenLine.read(systemLog).contains { $0.text.contains("Please enter passphrase for disk sda2") }
            }
            let opening = SpokenLine.read(systemLog).first { $0.text.contains("Please enter passphrase") }?.text ?? ""
            // The question first, then what the system says it is for.
            let afterCue = opening.hasPrefix("New request. ") ? String(opening.dropFirst(13)) : opening
            #expect(afterCue.hasPrefix("Please enter passphrase for disk sda2. Type it, then Enter."), "\(opening)")
            #expect(opening.contains("For disk sda2."), "\(opening)")
            #expect(!opening.contains("program of yours"))
            try? await Task.sleep(for: ClientRun.reactionTime)
            agent.type("correct horse\r")
            #expect(await querier.waitForExit(deadline: .seconds(20)) == .exited(0))
            #expect(querier.standardOutput == "correct horse\n")
        }
    }
}
