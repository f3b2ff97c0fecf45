import OTCPromptCore

/// The exit statuses as the docs list them: each of `ExitStatus`'s values with its name and meanings, for
/// `--help`, the man page, the README and the user guide (a test keeps the docs' tables equal to it).
extension ExitStatus {
    /// One row of the table: what a caller sees (`status`), what the code calls it (`name`), a short meaning for
    /// `--help` and the man page, and the full one for the docs' tables.
    public struct Entry: Sendable, Equatable {
        public var status: String
        public var name: String
        public var summary: String
        public var meaning: String
    }

    /// Every status, in the docs' order.
    public static let table: [Entry] = [
        Entry(
            status: "\(submitted)", name: "submitted", summary: "submitted",
            meaning: "a code was submitted (and accepted by `--check`) and printed on stdout; or a yes/no question "
                + "was answered yes (`yes` is printed)"),
        Entry(
            status: "\(rejected)", name: "rejected", summary: "rejected by --check or answered no",
            meaning: "`--check` rejected every attempt, or a yes/no question was answered no"),
        Entry(
            status: "\(usage)", name: "usage", summary: "usage error",
            meaning: "usage error: a bad option or value on the command line, an unknown `--voice`, a `--speech-log` "
                + "that cannot be opened (a bad configuration file never is)"),
        Entry(
            status: "\(invalidInput)", name: "invalidInput", summary: "--stdin got no valid code",
            meaning: "`--stdin` was not given a valid code (or, with `--charset any`, a valid secret)"),
        Entry(
            status: "\(checkCouldNotRun)", name: "checkCouldNotRun", summary: "the --check command could not run",
            meaning: "the `--check` command could not run at all (not found, not executable, killed by a signal from "
                + "elsewhere, no process to be had): said and shown, no attempt used"),
        Entry(
            status: "\(noTerminal)", name: "noTerminal, outputFailed", summary: "no terminal or stdout unwritable",
            meaning: "no terminal to prompt on, stdout could not be written (closed, broken pipe), or `--stdin` "
                + "could not read"),
        Entry(
            status: "\(unsupportedCharset)", name: "unsupportedCharset",
            summary: "the locale's character set is not supported",
            meaning: "the locale's character set is neither UTF-8 nor ISO-8859-1/15 (e.g. KOI8-R, EUC-JP): refused "
                + "before anything is asked, with the reason"),
        Entry(
            status: "\(timedOut)", name: "timedOut", summary: "timed out", meaning: "`--timeout` ran out"),
        Entry(
            status: "\(terminalClosed)", name: "terminalClosed", summary: "the terminal went away",
            meaning: "the terminal went away (end of file, or a hang-up seen as a read error), as if by SIGHUP"),
        Entry(
            status: "\(cancelled)", name: "cancelled", summary: "cancelled",
            meaning: "cancelled (Esc, Ctrl-C, Ctrl-D on an empty field)"),
        Entry(
            status: "128+N", name: "signalled", summary: "ended by signal N",
            meaning: "ended by signal N after the terminal was restored: 129 SIGHUP, 130 SIGINT, 131 SIGQUIT, "
                + "143 SIGTERM"),
    ]

    /// The docs' table (README, user guide), generated between `<!-- exit-status:begin -->` and its end marker.
    public static var markdownTable: String {
        (["| status | meaning |", "|---|---|"] + table.map { "| \($0.status) | \($0.meaning) |" })
            .joined(separator: "\n")
    }

    /// Why: in ASCII only, since the terminal's own charset is the one that cannot be written.
    public static func unsupportedCharsetMessage(_ codeset: String) -> String {
        "the locale's character set \(codeset.isEmpty ? "(unknown)" : codeset) is not supported "
            + "(only UTF-8, ISO-8859-1 and ISO-8859-15): nothing was asked. Use a UTF-8 locale, e.g. LC_ALL=C.UTF-8"
    }
}
