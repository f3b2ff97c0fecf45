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
    /// `foreground` process group.
    public static func refusal(
        of request: PolkitRequest, terminal: UInt64, foreground: Int32, process: (Int32) -> Process?
    ) -> String? {
        guard let asker = asker(of: request, terminal: terminal, process: process) else {
            return
                "the program that asks (\(request.askingProcess.map(String.init) ?? "unknown")) is not on this terminal"
        }
        guard asker.process.group == foreground else {
            return "the program that asks (\(asker.pid)) is not in the terminal's foreground"
        }
        return nil
    }
}
