import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

extension RealClientTests {
    /// A second local user against root's prompt: their config file, their server on another spelling of this
    /// machine, and their own prompt at their task limit. Every file is in the test's scratch directory; the
    /// stand-in for /etc/shadow is a root file made here, never the real one.
    @Suite(.serialized) struct TrustAndFaults {
        let scratch: ScratchDirectory
        let other: ThrowawayUser

        init() throws {
            scratch = try ScratchDirectory()
            other = try ThrowawayUser(in: scratch)
        }

        /// Runs `script` as the other user, in their home.
        func asOther(_ script: String) async throws {
            let result = try await runCommand(
                other.command(["/bin/sh", "-c", script]),
                environment: ["HOME": other.home, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
            try #require(result.status == .exited(0), "as the other user: \(script): \(result.error)")
        }

        func contents(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

        /// Which variable hands root the other user's file.
        enum Naming: String, CaseIterable, CustomTestStringConvertible {
            case xdgConfigHome, home, otcPromptConfig
            var testDescription: String { rawValue }
        }

        /// The other user's config names a root file (the stand-in for /etc/shadow) as the speech log and as the
        /// audio file; root's prompt, handed their file by each variable, believes none of it and says why.
        @Test(arguments: Naming.allCases)
        func anotherUsersConfigIsNotBelievedByRoot(naming: Naming) async throws {
            let shadow = try scratch.write("shadow-\(naming.rawValue)", "root:$y$stand-in:20000::::::\n", mode: 0o600)
            let log = try scratch.write("root-log-\(naming.rawValue)", "", mode: 0o600)
            try await asOther(
                "mkdir -p \"$HOME/.config/otc-prompt\" && printf 'speech-log = \"\(log)\"\\naudio-file = \"\(shadow)\"\\n"
                    + "rate = 450\\n' > \"$HOME/.config/otc-prompt/config\"")
            let config = other.home + "/.config/otc-prompt/config"
            var environment = ["HOME": scratch.path, "XDG_CONFIG_HOME": scratch.file("none")]
            switch naming {
            case .xdgConfigHome: environment["XDG_CONFIG_HOME"] = other.home + "/.config"
            case .home:
                environment["HOME"] = other.home
                environment["XDG_CONFIG_HOME"] = nil
            case .otcPromptConfig: environment["OTC_PROMPT_CONFIG"] = config
            }
            environment["XDG_RUNTIME_DIR"] = try scratch.runtimeDirectory(named: "runtime-\(naming.rawValue)")
            let process = try PseudoTerminalProcess(
                executable: Askpass.binary, arguments: ["--speech", "none"],
                environment: ClientRun.environment(environment))
            #expect(await process.waitForScreen(containing: "Verification code", deadline: .seconds(20)))
            try await Task.sleep(for: ClientRun.reactionTime)
            process.type("481516")
            #expect(await process.waitForExit(deadline: .seconds(20)) == .exited(0), "screen: \(process.screen)")
            let screen = visibleText(process.screen).replacingOccurrences(of: "\n", with: "")
            #expect(screen.contains("not believed"), "screen: \(screen)")
            #expect(screen.contains("user \(other.userID)"), "screen: \(screen)")
            #expect(contents(shadow) == "root:$y$stand-in:20000::::::\n", "the stand-in was written")
            #expect(contents(log) == "", "the root log received the code")
        }

        /// Root's own config file, but in a directory the other user may write: they could have put it there.
        @Test func aConfigInADirectoryAnotherUserMayWriteIsNotBelieved() async throws {
            let shared = scratch.file("shared")
            try #require(mkdir(shared, 0o700) == 0 && chown(shared, 0, other.groupID) == 0 && chmod(shared, 0o770) == 0)
            try #require(mkdir(shared + "/otc-prompt", 0o755) == 0)
            let log = try scratch.write("shared-log", "", mode: 0o600)
            let config = shared + "/otc-prompt/config"
            try "speech-log = \"\(log)\"\n".write(toFile: config, atomically: false, encoding: .utf8)
            let process = try PseudoTerminalProcess(
                executable: Askpass.binary, arguments: ["--speech", "none"],
                environment: ClientRun.environment([
                    "HOME": scratch.path, "XDG_CONFIG_HOME": shared,
                    "XDG_RUNTIME_DIR": try scratch.runtimeDirectory(named: "runtime-shared"),
                ]))
            #expect(await process.waitForScreen(containing: "Verification code", deadline: .seconds(20)))
            try await Task.sleep(for: ClientRun.reactionTime)
            process.type("481516")
            #expect(await process.waitForExit(deadline: .seconds(20)) == .exited(0), "screen: \(process.screen)")
            let screen = visibleText(process.screen).replacingOccurrences(of: "\n", with: "")
            #expect(screen.contains("not believed") && screen.contains("other users may write in it"), "\(screen)")
            #expect(contents(log) == "", "the log named by a file others could write received the code")
        }

        /// The other user's stand-in BrlAPI server listens on every address; BRLAPI_HOST names this machine
        /// another way than 127.0.0.1. Even with `--braille brlapi` (a remote display is wanted), root's prompt
        /// finds whose server it is and never connects.
        @Test(arguments: ["LOCALHOST", "HOSTNAME", "0.0.0.0", "[::]"])
        func anotherUsersBrailleServerOnAnotherSpellingOfThisMachineIsRefused(host: String) async throws {
            let heard = other.home + "/heard"
            let (port, listener) = try startListening("the other user's stand-in server") { port in
                try PseudoTerminalProcess(
                    executable: "/usr/bin/setpriv",
                    arguments: [
                        "--reuid=\(other.userID)", "--regid=\(other.groupID)", "--clear-groups", "--",
                        "/usr/bin/python3",
                        "-c",
                        """
                        import socket, sys
                        s = socket.socket(socket.AF_INET6)
                        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
                        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                        s.bind(("::", \(port)))
                        s.listen(4)
                        open(sys.argv[1], "w").write("ready\\n")
                        while True:
                            c, _ = s.accept()
                            open(sys.argv[1], "a").write("connected\\n")
                            c.close()
                        """, heard,
                    ], environment: ["PATH": "/usr/bin:/bin"], terminal: false)
            }
            try #require(port > 4101 && port - 4101 <= 60_000, "no port above 4101 free")
            #expect(await listener.wait(deadline: .seconds(10)) { _ in contents(heard) == "ready\n" })
            var name = host
            if host == "HOSTNAME" {
                var buffer = [CChar](repeating: 0, count: 256)
                gethostname(&buffer, 255)
                name = String(cString: buffer)
            }
            let doctor = try PseudoTerminalProcess(
                executable: Askpass.binary, arguments: ["--doctor", "--speech", "none", "--braille", "brlapi"],
                environment: ClientRun.environment([
                    "HOME": scratch.path, "XDG_CONFIG_HOME": scratch.file("none"),
                    "BRLAPI_HOST": "\(name):\(port - 4101)", "BRLAPI_AUTH": "none",
                    "XDG_RUNTIME_DIR": try scratch.runtimeDirectory(named: "runtime-braille-\(port)"),
                ]))
            #expect(await doctor.waitForExit(deadline: .seconds(30)) == .exited(0))
            let report = doctor.standardOutput
            #expect(report.contains("runs as uid \(other.userID), not as you"), "\(report)")
            #expect(!report.contains("Braille: BrlAPI at"), "\(report)")
            #expect(contents(heard) == "ready\n", "the other user's server was connected to")
        }

        /// The other user's own prompt at their task limit (a session at its TasksMax): with `--speech espeak`, a
        /// thread for the voice cannot be had. The prompt still asks, in text lines after a notice, and leaves
        /// the terminal as it found it. Root ignores RLIMIT_NPROC, so the prompt runs as the other user.
        @Test(arguments: [1, 2, 3, 4, 5])
        func noThreadForTheVoiceFallsBackToTextLines(tasks: Int) async throws {
            let runtime = try scratch.runtimeDirectory(
                named: "runtime-nproc-\(tasks)", owner: other.userID, group: other.groupID)
            let process = try PseudoTerminalProcess(
                executable: "/usr/bin/setpriv",
                arguments: [
                    "--reuid=\(other.userID)", "--regid=\(other.groupID)", "--clear-groups", "--",
                    "/usr/bin/prlimit", "--nproc=\(tasks)", "--", Askpass.binary, "--speech", "espeak",
                ],
                environment: ClientRun.environment([
                    "HOME": other.home, "XDG_CONFIG_HOME": scratch.file("none"), "XDG_RUNTIME_DIR": runtime,
                ]))
            let asked = await process.waitForScreen(containing: "Verification code", deadline: .seconds(30))
            #expect(asked, "screen: \(process.screen)")
            try await Task.sleep(for: ClientRun.reactionTime)
            process.type("481516")
            let status = await process.waitForExit(deadline: .seconds(20))
            #expect(status == .exited(0), "screen: \(process.screen)")
            #expect(process.standardOutput == "481516\n")
            #expect(visibleText(process.screen).contains("speech unavailable"), "screen: \(process.screen)")
            #expect(sameAttributes(process.attributesAtStart, process.slaveAttributes()))
        }
    }
}

/// Whether two terminal settings are the same in every flag and control character.
private func sameAttributes(_ a: termios, _ b: termios) -> Bool {
    var a = a
    var b = b
    return a.c_iflag == b.c_iflag && a.c_oflag == b.c_oflag && a.c_cflag == b.c_cflag && a.c_lflag == b.c_lflag
        && withUnsafeBytes(of: &a.c_cc) { x in withUnsafeBytes(of: &b.c_cc) { y in x.elementsEqual(y) } }
}
