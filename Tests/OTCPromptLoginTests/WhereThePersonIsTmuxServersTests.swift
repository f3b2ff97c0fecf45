import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

extension RealClientTests.WhereThePersonIs {
    /// Found by a tester: with two tmux servers of one user, a pane whose only client came over SSH counted the
    /// other server's local client, which had typed last, and spoke on this machine's speakers; a pane of a
    /// detached server borrowed another server's client. Only the clients of a pane's own server count.
    @Test func onlyTheClientsOfAPanesOwnTmuxServerCount() async throws {
        defer { speechDispatcher.stop() }
        // -L labels under a private TMUX_TMPDIR: the servers are found as tmux finds them, from the labels.
        let environment = [
            "HOME": user.home, "PATH": "/usr/bin:/bin", "TERM": "xterm-256color", "TMUX_TMPDIR": runtime,
        ]
        func tmux(_ label: String) -> String { "TMUX_TMPDIR=\(runtime) /usr/bin/tmux -L \(label)" }
        let typed = runtime + "/typed"
        // Each pane waits until the remote client is attached and the local one has typed, then asks the doctor.
        func pane(_ report: String) -> String {
            "n=0; until \(tmux("tester2")) list-clients | grep -q . && test -e \(typed); do n=$((n+1)); [ $n -lt 300 ] || exit 1; sleep 0.1; done; "
                + "XDG_RUNTIME_DIR=\(runtime) \(Askpass.binary) --doctor > \(report).part; "
                + "mv \(report).part \(report); sleep 60"
        }
        let reports = ["tester": runtime + "/doctor-detached", "tester2": runtime + "/doctor-remote"]
        for label in ["tester", "tester2", "tester3"] {
            let command = reports[label].map(pane) ?? "sleep 60"
            let started = try await runCommand(
                user.command([
                    "/usr/bin/tmux", "-L", label, "new-session", "-d", "-x", "100", "-y", "30", "/bin/sh", "-c",
                    command,
                ]), environment: environment)
            #expect(started.status == .exited(0), "\(started.error)")
        }
        defer {
            for label in ["tester", "tester2", "tester3"] {
                _ = try? runCommand(
                    user.command(["/usr/bin/tmux", "-L", label, "kill-server"]), environment: environment)
            }
        }
        let remote = try ssh("\(tmux("tester2")) attach")
        let local = try ClientRun(user.command(["/usr/bin/tmux", "-L", "tester3", "attach"]), environment: environment)
        #expect(await local.waitForScreen("[0]"), "screen: \(local.visibleScreen)")
        // The local client of the other server is the last typed on: its terminal's access time is newest.
        await pause(ClientRun.reactionTime)
        await local.typeKeys("echo x\r")
        await pause(ClientRun.reactionTime)
        guard let file = fopen(typed, "w") else { throw HarnessError("create \(typed)") }
        fclose(file)
        for report in reports.values {
            let written = await waitUntil(deadline: .seconds(20)) { access(report, F_OK) == 0 }
            #expect(written, "\(report) never written; remote screen: \(remote.visibleScreen)")
        }
        let text = (try? String(contentsOfFile: reports["tester2"]!, encoding: .utf8)) ?? ""
        #expect(text.hasPrefix("Speech: text, because you are not at this machine"), "\(text)")
        #expect(text.contains("Where you are: at another machine"), "\(text)")
        #expect(text.contains("is a tmux pane and its one client is on /dev/pts/"), "\(text)")
        #expect(text.contains("was opened by sshd"), "\(text)")
        let detached = (try? String(contentsOfFile: reports["tester"]!, encoding: .utf8)) ?? ""
        #expect(detached.hasPrefix("Speech: text"), "\(detached)")
        #expect(detached.contains("Where you are: not known, because /dev/pts/"), "\(detached)")
        #expect(detached.contains("is a tmux pane with no client attached"), "\(detached)")
    }
}
