/// How otc-prompt reads its own command line when a caller may have put untrusted text in it.
///
/// ssh, sudo -A and git run their askpass program with the prompt as the only argument, and that prompt can
/// come from a remote party: a server's keyboard-interactive prompt, PAM challenge text from RADIUS or SSSD.
/// It is data. Read as options, "--check=CMD" would run a command as soon as a code is typed,
/// "--speech-log=FILE" would write the code where the prompt's author chose, and "--help" would be sent back
/// as the password.
public enum AskpassArguments {
    /// The arguments to hand to the option parser, with a caller's prompt placed after "--", where no option
    /// can be read from it.
    ///
    /// - An askpass call (see `isAskpassCall`) becomes `--askpass -- PROMPT`, whatever PROMPT starts with.
    /// - After `--askpass` with no `--` before the last argument (a wrapper: `exec otc-prompt --askpass OPTIONS "$@"`),
    ///   the last argument is the prompt, whatever it is ("--" included), and `--` is put before it.
    /// - Anything else is parsed as it is: a person is calling.
    /// - Parameters:
    ///   - arguments: the command-line arguments after the program's name.
    ///   - programPath: how this program was run (argv[0]).
    ///   - standardOutputIsTerminal: whether fd 1 is a terminal; an askpass caller always reads it from a pipe.
    public static func forParsing(
        _ arguments: [String], environment: [String: String], programPath: String, standardOutputIsTerminal: Bool
    ) -> [String] {
        if isAskpassCall(
            arguments: arguments, environment: environment, programPath: programPath,
            standardOutputIsTerminal: standardOutputIsTerminal)
        {
            return ["--askpass", "--"] + arguments
        }
        // A "--" before the last argument is the wrapper's own separator; a lone "--" at the end is a prompt.
        guard !arguments.dropLast().contains("--"), let flag = arguments.firstIndex(of: "--askpass"),
            flag < arguments.index(before: arguments.endIndex)
        else { return arguments }
        return arguments.dropLast() + ["--", arguments[arguments.index(before: arguments.endIndex)]]
    }

    /// Whether this run is an askpass call rather than a person running `otc-prompt "My label"` or
    /// `otc-prompt --help`: ssh, sudo -A and git run the program named by SSH_ASKPASS, SUDO_ASKPASS or
    /// GIT_ASKPASS with the prompt as the only argument, and read the answer from its stdout, a pipe.
    ///
    /// One of those variables must name this program (its last path component), or ssh must have set
    /// SSH_ASKPASS_PROMPT; and stdout must not be a terminal, where no caller could read an answer. So
    /// `otc-prompt --help` typed at a shell with SUDO_ASKPASS exported still prints the help.
    public static func isAskpassCall(
        arguments: [String], environment: [String: String], programPath: String, standardOutputIsTerminal: Bool
    ) -> Bool {
        guard arguments.count == 1, !standardOutputIsTerminal else { return false }
        if let hint = environment["SSH_ASKPASS_PROMPT"], hint == "confirm" || hint == "none" { return true }
        let program = lastComponent(programPath)
        return ["SSH_ASKPASS", "SUDO_ASKPASS", "GIT_ASKPASS"].contains { name in
            environment[name].map { !program.isEmpty && lastComponent($0) == program } ?? false
        }
    }

    private static func lastComponent(_ path: String) -> Substring {
        path.split(separator: "/").last ?? ""
    }
}
