import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// The real gpg-agent killed while its pinentry asks: the pinentry must not outlive it.
@Suite(.runsPrograms, .serialized) struct PinentryAgentKilledEndToEndTests {
    /// The one live process whose command line holds every one of `parts`; nil if none or several.
    static func processID(withArguments parts: [String]) -> pid_t? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        let found = entries.compactMap { name -> pid_t? in
            guard let pid = pid_t(name), isAlive(pid),
                let data = FileManager.default.contents(atPath: "/proc/\(name)/cmdline")
            else { return nil }
            let arguments = String(decoding: data, as: UTF8.self).split(separator: "\0").map(String.init)
            return parts.allSatisfy { part in arguments.contains { $0.contains(part) } } ? pid : nil
        }
        return found.count == 1 ? found[0] : nil
    }

    /// Whether `pid` runs (a zombie left for init to reap has ended).
    static func isAlive(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(close, offsetBy: 2)] != "Z"
    }

    @Test(.timeLimit(.minutes(5))) func killingGpgAgentMidGetpinEndsThePinentryAndLeavesTheNextLineAlone() async throws
    {
        let home = try await GnuPGHome()
        let gpg = try PseudoTerminalProcess(
            executable: "/bin/sh",
            arguments: home.onTerminal("--yes --sign --output '\(home.path)/message.gpg' '\(home.path)/message'"),
            environment: home.environment)
        let before = gpg.attributesAtStart
        #expect(
            await gpg.waitForScreen(containing: "Passphrase. Type it", deadline: .seconds(20)), "screen: \(gpg.screen)")
        gpg.type("abc")
        #expect(await gpg.waitForScreen(containing: "3 entered", deadline: .seconds(10)))
        let agent = try #require(Self.processID(withArguments: ["gpg-agent", home.path]), "gpg-agent not found")
        let pinentry = try #require(Self.processID(withArguments: ["--pinentry", home.speechLog]), "no pinentry")
        #expect(!sameAttributes(before, gpg.slaveAttributes()), "the dialog holds the terminal raw")

        // SIGKILL: the agent says nothing; the kernel closes its ends of the pinentry's pipes.
        let clock = ContinuousClock()
        let killed = clock.now
        kill(agent, SIGKILL)
        var restored: Duration?
        var ended: Duration?
        while clock.now - killed < .seconds(10) && (restored == nil || ended == nil) {
            if restored == nil && sameAttributes(before, gpg.slaveAttributes()) { restored = clock.now - killed }
            if ended == nil && !Self.isAlive(pinentry) { ended = clock.now - killed }
            try? await Task.sleep(for: .milliseconds(1))
        }
        print(
            "gpg-agent killed: terminal restored after \(String(describing: restored)), pinentry ended after \(String(describing: ended))"
        )
        // Restored and ended within the bound (how soon is a figure for make bench, which load cannot break).
        #expect(restored != nil, "not restored")
        #expect(ended != nil, "not ended")
        #expect(await gpg.waitForExit(deadline: .seconds(20)) != nil, "gpg waits for a dead agent")
        // The next line is the terminal's next reader's, whole.
        let tty = try #require(gpg.terminal)
        gpg.type("ls -la\r")
        var descriptor = pollfd(fd: tty.slave, events: Int16(POLLIN), revents: 0)
        #expect(poll(&descriptor, 1, 2000) == 1)
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(tty.slave, &buffer, buffer.count)
        #expect(count > 0 && String(decoding: buffer[..<count], as: UTF8.self) == "ls -la\n")
    }
}
