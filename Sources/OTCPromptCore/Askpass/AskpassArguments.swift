/// How otc-prompt reads its own command line when a caller may have put untrusted text in it.
///
/// ssh, sudo -A and git run their askpass program with the prompt as the only argument, and that prompt can
/// come from a remote party: a server's keyboard-interactive prompt, PAM challenge text from RADIUS or SSSD.
/// It is data. Read as options, "--check=CMD" would run a command as soon as a code is typed,
/// "--speech-log=FILE" would write the code where the prompt's author chose, and "--help" would be sent back
/// as the password.
public enum AskpassArguments {
    /// The arguments to hand to the option parser, with a caller's prompt placed after "--", where no option
    /// can be read from it; nil when they are a person's, parsed as they are.
    ///
    /// - An askpass call (see `isAskpassCall`) becomes `--askpass -- PROMPT`, whatever PROMPT starts with.
    /// - After `--askpass` with no `--` before the last argument (a wrapper: `exec otc-prompt --askpass OPTIONS "$@"`),
    ///   the last argument is the prompt, whatever it is ("--" included), and `--` is put before it.
    /// - Anything else is parsed as it is: a person is calling.
    /// - Parameters:
    ///   - arguments: the command-line arguments after the program's name.
    ///   - programPath: how this program was run (argv[0]).
    ///   - standardOutput: who reads fd 1; an askpass caller reads it itself, from a pipe.
    ///   - namesAJob: whether an argument alone names a job of its own (`--doctor`, `--version`): the front ends'
    ///     own options, which an askpass variable must not turn into a prompt where no caller reads the output.
    public static func forParsing(
        _ arguments: [String], environment: [String: String], programPath: String,
        standardOutput: StandardOutputReader, namesAJob: (String) -> Bool
    ) -> [String]? {
        if isAskpassCall(
            arguments: arguments, environment: environment, programPath: programPath, standardOutput: standardOutput,
            namesAJob: namesAJob)
        {
            return ["--askpass", "--"] + arguments
        }
        // A "--" before the last argument is the wrapper's own separator; a lone "--" at the end is a prompt.
        guard !arguments.dropLast().contains("--"), let flag = arguments.firstIndex(of: "--askpass"),
            flag < arguments.index(before: arguments.endIndex)
        else { return nil }
        return arguments.dropLast() + ["--", arguments[arguments.index(before: arguments.endIndex)]]
    }

    /// Whether this run is an askpass call rather than a person running `otc-prompt "My label"` or
    /// `otc-prompt --help`: ssh, sudo -A and git run the program named by SSH_ASKPASS, SUDO_ASKPASS or
    /// GIT_ASKPASS with the prompt as the only argument, and read the answer from its stdout, a pipe.
    ///
    /// One of those variables must name this program (its last path component), or ssh must have set
    /// SSH_ASKPASS_PROMPT; and stdout must not be a terminal, where no caller could read an answer. So
    /// `otc-prompt --help` typed at a shell with SUDO_ASKPASS exported still prints the help. An option that names a
    /// job (`namesAJob`) is that job where stdout is shown not to be the caller's (`--doctor > report.txt`,
    /// `--version | cat`); where it may be (a pipe the parent holds, or one it cannot see), it stays a prompt, for a
    /// caller's prompt that says "--doctor" must not send the report as the answer.
    public static func isAskpassCall(
        arguments: [String], environment: [String: String], programPath: String,
        standardOutput: StandardOutputReader, namesAJob: (String) -> Bool
    ) -> Bool {
        guard arguments.count == 1, standardOutput != .terminal else { return false }
        if standardOutput == .notTheCaller && namesAJob(arguments[0]) { return false }
        if SSHAskpassHint(environment: environment) != nil { return true }
        let program = lastComponent(programPath)
        return ["SSH_ASKPASS", "SUDO_ASKPASS", "GIT_ASKPASS"].contains { name in
            environment[name].map { !program.isEmpty && lastComponent($0) == program } ?? false
        }
    }

    /// Whether who reads stdout decides this run: a job's own option alone, maybe read by the caller, where an
    /// askpass variable names this program (or ssh's hint is set). Only then is it worth waiting for a pipeline a
    /// loaded shell starts late to show its reader; `otc-prompt --version` read by a script's pipe, with no askpass
    /// variable, is the version at once.
    public static func readerDecides(
        arguments: [String], environment: [String: String], programPath: String,
        standardOutput: StandardOutputReader, namesAJob: (String) -> Bool
    ) -> Bool {
        guard standardOutput == .mayBeTheCaller, let only = arguments.first, arguments.count == 1, namesAJob(only)
        else { return false }
        return isAskpassCall(
            arguments: arguments, environment: environment, programPath: programPath, standardOutput: standardOutput,
            namesAJob: namesAJob)
    }

    private static func lastComponent(_ path: String) -> Substring {
        path.split(separator: "/").last ?? ""
    }
}

/// Who reads the program's standard output, as far as the program can see: what tells a caller's askpass run from
/// a person's `otc-prompt --version | cat` when the caller's variable names this program.
public enum StandardOutputReader: Equatable, Sendable {
    /// A terminal: a person; no caller reads an answer there.
    case terminal
    /// Not the caller: a file, a device other than a terminal, or a pipe the parent process does not hold (a
    /// shell's pipeline: the shell keeps no end of it). ssh, sudo and git read their askpass's answer themselves.
    case notTheCaller
    /// A pipe or socket the parent holds, or whose holders cannot be seen (sudo runs its askpass as the user from a
    /// process of root's): maybe the caller.
    case mayBeTheCaller
}
