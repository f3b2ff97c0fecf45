import OTCPromptCore
import Testing

/// A caller's prompt is data: whatever it says, it never becomes an option.
@Suite struct AskpassArgumentsTests {
    private static let path = "/usr/local/bin/otc-prompt"

    private func parsed(
        _ arguments: [String], _ environment: [String: String] = ["SUDO_ASKPASS": path], terminal: Bool = false
    ) -> [String] {
        AskpassArguments.forParsing(
            arguments, environment: environment, programPath: Self.path, standardOutputIsTerminal: terminal)
    }

    /// What sudo -p, a PAM challenge or a keyboard-interactive server can put in the one argument.
    @Test(arguments: [
        "--check=id > /tmp/pwned", "--speech-log=/tmp/code", "--help", "-h", "--version", "--", "-n", "--askpass",
        "-- --check=id", "[sudo] password for joe: ", "",
    ])
    func anAskpassCallsOnlyArgumentIsThePrompt(prompt: String) {
        #expect(parsed([prompt]) == ["--askpass", "--", prompt])
        #expect(parsed([prompt], ["SSH_ASKPASS_PROMPT": "confirm"]) == ["--askpass", "--", prompt])
        #expect(parsed([prompt], ["GIT_ASKPASS": "otc-prompt"]) == ["--askpass", "--", prompt])
    }

    @Test func theVariableMustNameThisProgram() {
        #expect(parsed(["--help"], ["SSH_ASKPASS": "/usr/lib/ssh/x11-ssh-askpass"]) == ["--help"])
        #expect(parsed(["Bank PIN"], [:]) == ["Bank PIN"])
        #expect(parsed(["--help"], ["SSH_ASKPASS_PROMPT": "other"]) == ["--help"])
    }

    /// A person at a shell with SUDO_ASKPASS exported: no caller reads an answer from a terminal.
    @Test func onATerminalTheArgumentsAreAPersons() {
        #expect(parsed(["--help"], terminal: true) == ["--help"])
        #expect(parsed(["Bank PIN"], terminal: true) == ["Bank PIN"])
    }

    @Test func moreThanOneArgumentIsAPersonOrAWrapper() {
        #expect(parsed(["-n", "4", "Bank PIN"]) == ["-n", "4", "Bank PIN"])
        #expect(parsed([]) == [])
    }

    /// `exec otc-prompt --askpass OPTIONS "$@"`, the wrapper an earlier user guide showed, without `--`.
    @Test(arguments: ["--check=id > /tmp/pwned", "--help", "--askpass", "-h", "Password: "])
    func afterAskpassTheLastArgumentIsThePrompt(prompt: String) {
        #expect(parsed(["--askpass", "--rate", "320", prompt], [:]) == ["--askpass", "--rate", "320", "--", prompt])
        #expect(parsed(["--askpass", prompt], [:], terminal: true) == ["--askpass", "--", prompt])
    }

    @Test func aWrapperThatSaysDoubleDashIsReadAsItIs() {
        let arguments = ["--askpass", "--rate", "320", "--", "--check=x"]
        #expect(parsed(arguments, [:]) == arguments)
        #expect(parsed(["--askpass"], [:]) == ["--askpass"])
        #expect(parsed(["--rate", "320", "--askpass"], [:]) == ["--rate", "320", "--askpass"])
    }
}
