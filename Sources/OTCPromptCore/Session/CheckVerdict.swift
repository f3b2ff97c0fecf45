/// How a `--check` command ended, as the session takes it: the live command
/// (`OTCPromptHost.CheckCommand`) reports it through the rules below, the loop hands it on.
public enum CheckVerdict: Equatable, Sendable {
    /// Exit status 0: the code is good.
    case accepted
    /// Any other exit status; -1 when it could not be read (an unknown status never accepts).
    case rejected(status: Int32)
    /// It could not run at all (why, in words): no verdict on the code.
    case couldNotRun(String)

    /// The verdict of a shell that exited with `status`: 0 accepts; 126 and 127 are the shell saying the
    /// command could not be run or found (`sh -c`, POSIX), which says nothing about the code.
    public static func exited(_ status: Int32) -> CheckVerdict {
        switch status {
        case 0: .accepted
        case 126: .couldNotRun("the shell could not run the command (status 126)")
        case 127: .couldNotRun("the shell could not find the command (status 127)")
        default: .rejected(status: status)
        }
    }

    /// The verdict of a check that was killed: by the prompt (`--check-timeout`) or by anyone else.
    public static func killed(by signal: Int32) -> CheckVerdict {
        .couldNotRun("it was killed by signal \(signal)")
    }
}
