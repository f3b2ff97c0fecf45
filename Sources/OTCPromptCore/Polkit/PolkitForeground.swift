/// Whether a polkit request may take this terminal: only for a program in its foreground. The agent shares the
/// terminal with a shell; a request from a background job, another terminal or a daemon would take keys meant for
/// the shell (a password typed for the wrong question, or a command line eaten), so it is cancelled instead.
public enum PolkitForeground {
    /// What `/proc/PID/stat` says of a process: its process group and its controlling terminal (`tty_nr`, 0: none).
    public struct Process: Equatable, Sendable {
        public var group: Int32
        public var terminal: UInt64

        public init(group: Int32, terminal: UInt64) {
            self.group = group
            self.terminal = terminal
        }
    }

    /// The process whose place decides: polkitd's caller when it runs on this terminal (pkexec, whose subject is
    /// the shell it was started from, at its prompt even while pkexec runs in the background), else the subject
    /// (udisksctl, whose caller is udisksd). Nil when neither runs on this terminal.
    public static func asker(
        of request: PolkitRequest, terminal: UInt64, process: (Int32) -> Process?
    ) -> (pid: Int32, process: Process)? {
        for key in ["polkit.caller-pid", "polkit.subject-pid"] {
            guard let value = request.details[key], let pid = Int32(value), pid > 0,
                let found = process(pid), found.terminal != 0, found.terminal == terminal
            else { continue }
            return (pid, found)
        }
        return nil
    }

    /// Why the request may not be asked at this terminal, nil when it may: its asker is in the terminal's
    /// `foreground` process group, and is neither the `served` shell (`--process`) nor the terminal's session
    /// `leader`. polkitd lets any program of the user's name any of the user's processes as the subject: one on no
    /// terminal naming the shell would otherwise be asked while the shell, at its prompt, is the foreground and
    /// reads the same keys. A real pkexec or udisksctl is the shell's child, never the shell.
    public static func refusal(
        of request: PolkitRequest, terminal: UInt64, foreground: Int32, served: Int32?, leader: Int32?,
        process: (Int32) -> Process?
    ) -> String? {
        guard let asker = asker(of: request, terminal: terminal, process: process) else {
            return
                "the program that asks (\(request.askingProcess.map(String.init) ?? "unknown")) is not on this terminal"
        }
        if asker.pid == served || asker.pid == leader {
            return "the program that asks (\(asker.pid)) is the shell itself, not a program run from it"
        }
        guard asker.process.group == foreground else {
            return "the program that asks (\(asker.pid)) is not in the terminal's foreground"
        }
        return nil
    }

    /// Whether pkexec's command line (`/proc/PID/cmdline`, which its caller writes) may word the short question:
    /// only when polkitd's caller is the asker checked at this terminal, runs as root (effective uid 0) and is the
    /// pkexec polkit installs. `executable` is `/proc/PID/exe`, nil when the kernel hides it (it does for a setuid
    /// program's own user): then its `name` (`/proc/PID/stat`, set from the file it runs) must be pkexec's, since
    /// no program of the user's runs as root but a setuid one. Otherwise the action's own message is the question.
    public static func trustsPkexecCommandLine(
        caller: Int32, asker: Int32, effectiveUID: UInt32?, executable: String?, name: String?
    ) -> Bool {
        guard caller == asker, effectiveUID == 0 else { return false }
        if let executable { return executable == installedPkexec }
        return name == "pkexec"
    }

    /// Where polkit's package installs pkexec.
    public static let installedPkexec = "/usr/bin/pkexec"
}
