import Testing

@testable import OTCPromptCore

/// A polkit request naming the shell never takes the terminal; pkexec's
/// command line words the question only from the real pkexec.
@Suite struct PolkitShellAndPkexecTests {
    private let tty: UInt64 = 34816
    /// The served shell 100 (its own group, the foreground while it sits at its prompt), pkexec 200 in group 200, a
    /// daemon 300 on no terminal, the session leader 50.
    private func process(_ pid: Int32) -> PolkitForeground.Process? {
        switch pid {
        case 50: .init(group: 50, terminal: tty)
        case 100: .init(group: 100, terminal: tty)
        case 200: .init(group: 200, terminal: tty)
        case 300: .init(group: 300, terminal: 0)
        default: nil
        }
    }

    private func request(caller: Int32, subject: Int32) -> PolkitRequest {
        PolkitRequest(
            actionID: "org.freedesktop.policykit.exec", message: "m",
            details: ["polkit.caller-pid": "\(caller)", "polkit.subject-pid": "\(subject)"], cookie: "c",
            identities: [])
    }

    private func refusal(_ request: PolkitRequest, foreground: Int32) -> String? {
        PolkitForeground.refusal(
            of: request, terminal: tty, foreground: foreground, served: 100, leader: 50, process: process)
    }

    @Test func aProgramInTheForegroundIsAsked() {
        #expect(refusal(request(caller: 200, subject: 100), foreground: 200) == nil)
    }

    @Test func aBackgroundJobIsRefused() {
        #expect(
            refusal(request(caller: 200, subject: 100), foreground: 100)?.contains("not in the terminal's foreground")
                == true)
    }

    @Test func aProgramOffTheTerminalNamingTheShellAsSubjectIsRefused() {
        // The shell at its prompt is the foreground: its keys are readline's.
        let reason = refusal(request(caller: 300, subject: 100), foreground: 100)
        #expect(reason?.contains("the shell itself") == true, "\(reason ?? "asked")")
        #expect(refusal(request(caller: 300, subject: 50), foreground: 50)?.contains("the shell itself") == true)
        // Without a --process, the session leader alone.
        let unserved = PolkitForeground.refusal(
            of: request(caller: 300, subject: 50), terminal: tty, foreground: 50, served: nil, leader: 50,
            process: process)
        #expect(unserved?.contains("the shell itself") == true)
    }

    @Test func pkexecsCommandLineWordsTheQuestionOnlyFromTheRealPkexecCheckedHere() {
        func trusts(caller: Int32 = 200, asker: Int32 = 200, euid: UInt32? = 0, exe: String?, name: String? = "pkexec")
            -> Bool
        {
            PolkitForeground.trustsPkexecCommandLine(
                caller: caller, asker: asker, effectiveUID: euid, executable: exe, name: name)
        }
        #expect(trusts(exe: "/usr/bin/pkexec"))
        // The kernel hides a setuid program's file from its user: its name, as root, then.
        #expect(trusts(exe: nil))
        // Not the asker checked here (the subject was), not root, another file, another name.
        #expect(!trusts(caller: 300, asker: 100, exe: "/usr/bin/pkexec"))
        #expect(!trusts(euid: 1000, exe: "/usr/bin/pkexec"))
        #expect(!trusts(euid: nil, exe: nil))
        #expect(!trusts(exe: "/home/u/pkexec"))
        #expect(!trusts(exe: nil, name: "sh"))
    }
}
