// SPDX-License-Identifier: GPL-3.0-or-later

/// The exit statuses, declared once, where every module can reach them: the program returns these values, and
/// `--help`, the man page, the README and the user guide list them from `ExitStatus.table` (OTCPromptSettings,
/// which a test keeps equal to the docs).
public enum ExitStatus {
    public static let submitted: Int32 = 0
    /// All check attempts were rejected, or a confirmation was answered no.
    public static let rejected: Int32 = 1
    public static let usage: Int32 = 64
    /// `--stdin` was given something that is not a code.
    public static let invalidInput: Int32 = 65
    /// The `--check` command could not run at all (sysexits' EX_UNAVAILABLE): no attempt was used.
    public static let checkCouldNotRun: Int32 = 69
    public static let noTerminal: Int32 = 74
    public static let outputFailed: Int32 = 74
    /// The locale's charset is one the prompt cannot read and write (sysexits' EX_CONFIG): a secret typed in it
    /// could be changed, so nothing is asked.
    public static let unsupportedCharset: Int32 = 78
    /// `--timeout` ran out (timeout(1)'s convention).
    public static let timedOut: Int32 = 124
    /// The terminal went away (hang-up or end of input), as if by SIGHUP.
    public static let terminalClosed: Int32 = 129
    public static let cancelled: Int32 = 130

    /// A signal's status when it cannot be raised again, or a child's that a signal ended (the shell's convention).
    @inlinable public static func signalled(_ signal: Int32) -> Int32 { 128 + signal }
}
