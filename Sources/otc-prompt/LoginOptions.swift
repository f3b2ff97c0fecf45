import ArgumentParser
import OTCPromptLoop

/// The options that fit the prompt into logins and scripts.
struct LoginOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Check the submitted code with this shell command before accepting it.",
            discussion: """
                The command runs with /bin/sh -c and gets the code on its standard input (never in its \
                arguments or environment). Exit status 0 accepts; anything else rejects, and the first \
                line it wrote to stderr is spoken. Example, with the TOTP secret in a file: \
                --check 'oathtool --totp -b -w 1 @"$HOME/.totp.key" - >/dev/null 2>&1'.
                """, valueName: "command"))
    var check: String?

    @Option(help: "How many codes --check may reject before otc-prompt gives up with exit status 1.")
    var attempts: Int = 3

    @Option(
        name: .customLong("check-timeout"),
        help: "Seconds a check may run before it is killed and counts as a rejection.")
    var checkTimeout: Double = 30

    @Option(
        help:
            "Give up after this many seconds (exit status 124). Time left is spoken at 30 and 10 seconds, and on Ctrl-T."
    )
    var timeout: Double?

    @Flag(
        help: ArgumentHelp(
            "Read PROMPT as an askpass prompt: a code prompt, a password prompt or a yes/no question.",
            discussion:
                "The last argument is then always the prompt, whatever it starts with: write a wrapper as `otc-prompt --askpass OPTIONS -- \"$@\"`. Automatic when SSH_ASKPASS, SUDO_ASKPASS or GIT_ASKPASS names otc-prompt and it is called with the prompt alone."
        )
    )
    var askpass = false

    @Flag(
        help:
            "Do not prompt: read one line from standard input, check it like a paste (with --charset any, the whole line is the secret), and print it."
    )
    var stdin = false

    func validate() throws {
        guard (1...99).contains(attempts) else {
            throw ValidationError("--attempts must be between 1 and 99, not \(attempts).")
        }
        guard checkTimeout > 0, checkTimeout <= 86_400 else {
            throw ValidationError("--check-timeout must be a number of seconds above 0, not \(checkTimeout).")
        }
        if let timeout, !(timeout > 0 && timeout <= 86_400) {
            throw ValidationError("--timeout must be a number of seconds above 0 (at most a day), not \(timeout).")
        }
    }

    /// The check to run, if any.
    var checkSettings: CheckSettings? {
        check.map { CheckSettings(command: $0, timeout: .milliseconds(Int64(checkTimeout * 1000))) }
    }

    var timeLimit: Duration? {
        timeout.map { .milliseconds(Int64($0 * 1000)) }
    }
}
