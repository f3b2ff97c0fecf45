import OTCPromptCore
import Testing

/// A caller's prompt is data: whatever it says, it never becomes an option.
@Suite struct AskpassArgumentsTests {
    private static let path = "/usr/local/bin/otc-prompt"
    /// The options the front ends say name their jobs (`FrontEnds.namesAJob`, checked in the program's tests).
    static let jobs = [
        "--doctor", "--version", "--help", "-h", "--pinentry", "--agent", "--stdin", "--cryptsetup", "--boot-cue=first",
    ]

    private func parsed(
        _ arguments: [String], _ environment: [String: String] = ["SUDO_ASKPASS": path],
        reader: StandardOutputReader = .mayBeTheCaller
    ) -> [String] {
        AskpassArguments.forParsing(
            arguments, environment: environment, programPath: Self.path, standardOutput: reader,
            namesAJob: Self.jobs.contains) ?? arguments
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

    /// The wait for a late pipeline's reader is paid only where the reader decides: a job's option, maybe the
    /// caller's, under an askpass variable naming this program; never for a script reading `--version`.
    @Test func onlyAnAskpassVariableMakesTheReaderDecide() {
        func decides(_ arguments: [String], _ environment: [String: String], _ reader: StandardOutputReader) -> Bool {
            AskpassArguments.readerDecides(
                arguments: arguments, environment: environment, programPath: Self.path, standardOutput: reader,
                namesAJob: Self.jobs.contains)
        }
        #expect(decides(["--version"], ["SUDO_ASKPASS": Self.path], .mayBeTheCaller))
        #expect(decides(["--doctor"], ["SSH_ASKPASS_PROMPT": "confirm"], .mayBeTheCaller))
        #expect(!decides(["--version"], [:], .mayBeTheCaller))
        #expect(!decides(["--version"], ["SUDO_ASKPASS": "/usr/bin/ssh-askpass"], .mayBeTheCaller))
        #expect(!decides(["--version"], ["SUDO_ASKPASS": Self.path], .notTheCaller))
        #expect(!decides(["--version"], ["SUDO_ASKPASS": Self.path], .terminal))
        #expect(!decides(["Password:"], ["SUDO_ASKPASS": Self.path], .mayBeTheCaller))
        #expect(!decides(["--version", "--doctor"], ["SUDO_ASKPASS": Self.path], .mayBeTheCaller))
    }

    @Test func theVariableMustNameThisProgram() {
        #expect(parsed(["--help"], ["SSH_ASKPASS": "/usr/lib/ssh/x11-ssh-askpass"]) == ["--help"])
        #expect(parsed(["Bank PIN"], [:]) == ["Bank PIN"])
        #expect(parsed(["--help"], ["SSH_ASKPASS_PROMPT": "other"]) == ["--help"])
    }

    /// A person at a shell with SUDO_ASKPASS exported: no caller reads an answer from a terminal.
    @Test func onATerminalTheArgumentsAreAPersons() {
        #expect(parsed(["--help"], reader: .terminal) == ["--help"])
        #expect(parsed(["Bank PIN"], reader: .terminal) == ["Bank PIN"])
    }

    /// A person's `otc-prompt --doctor > report.txt` or `--version | cat` with SUDO_ASKPASS or SSH_ASKPASS exported:
    /// an option that names a job does it where stdout is shown not to be a caller's; a label is still a label.
    @Test(arguments: jobs)
    func anOptionThatNamesAJobIsThatJobWhereNoCallerReadsTheOutput(option: String) {
        for environment in [["SUDO_ASKPASS": Self.path], ["SSH_ASKPASS": Self.path], ["SSH_ASKPASS_PROMPT": "none"]] {
            #expect(parsed([option], environment, reader: .notTheCaller) == [option])
            #expect(parsed([option], environment, reader: .mayBeTheCaller) == ["--askpass", "--", option])
        }
        #expect(
            parsed(["[sudo] password for joe: "], reader: .notTheCaller) == [
                "--askpass", "--", "[sudo] password for joe: ",
            ])
        #expect(parsed(["--check=id"], reader: .notTheCaller) == ["--askpass", "--", "--check=id"])
    }

    @Test func moreThanOneArgumentIsAPersonOrAWrapper() {
        #expect(parsed(["-n", "4", "Bank PIN"]) == ["-n", "4", "Bank PIN"])
        #expect(parsed([]) == [])
    }

    /// `exec otc-prompt --askpass OPTIONS "$@"`, the wrapper an earlier user guide showed, without `--`.
    @Test(arguments: ["--check=id > /tmp/pwned", "--help", "--askpass", "-h", "Password: ", "--"])
    func afterAskpassTheLastArgumentIsThePrompt(prompt: String) {
        #expect(parsed(["--askpass", "--rate", "320", prompt], [:]) == ["--askpass", "--rate", "320", "--", prompt])
        #expect(parsed(["--askpass", prompt], [:], reader: .terminal) == ["--askpass", "--", prompt])
    }

    @Test func aWrapperThatSaysDoubleDashIsReadAsItIs() {
        let arguments = ["--askpass", "--rate", "320", "--", "--check=x"]
        #expect(parsed(arguments, [:]) == arguments)
        #expect(parsed(["--askpass"], [:]) == ["--askpass"])
        #expect(parsed(["--rate", "320", "--askpass"], [:]) == ["--rate", "320", "--askpass"])
    }
}
