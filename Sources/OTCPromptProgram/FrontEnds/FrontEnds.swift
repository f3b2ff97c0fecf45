import OTCPromptCore
import OTCPromptSettings

/// Every front end, listed once; the one place that chooses which runs.
enum FrontEnds {
    /// Every front end the program has. Their order here does not matter: each one's `priority` does.
    static var all: [any FrontEndRun.Type] {
        [
            DoctorFrontEndRun.self, BootCueFrontEndRun.self, PinentryFrontEndRun.self, StdinFrontEndRun.self,
            CryptsetupFrontEndRun.self, AgentFrontEndRun.self, PolkitFrontEndRun.self, TouchFrontEndRun.self,
            AskpassFrontEndRun.self,
            PromptFrontEndRun.self,
        ]
    }

    /// `all`, in the order they are asked.
    static var byPriority: [any FrontEndRun.Type] { all.sorted { $0.priority < $1.priority } }

    /// The arguments the parser reads: the first front end that knows the raw call by them says how (an askpass's
    /// prompt as data), else they are read as they are.
    static func argumentsToParse(_ call: FrontEndCall) -> [String] {
        for frontEnd in byPriority {
            if let arguments = frontEnd.argumentsToParse(call) { return arguments }
        }
        return call.arguments
    }

    /// The front end a parsed call asks for: the first, by priority, that recognises it.
    static func choose(_ call: ParsedCall) -> any FrontEndRun {
        for frontEnd in byPriority {
            if let chosen = frontEnd.recognise(call) { return chosen }
        }
        // The plain prompt recognises every call; were it ever left out of the list, this is still what runs.
        return PromptFrontEndRun()
    }

    /// The front end a command line asks for.
    static func choose(
        commandLine: SettingValues, prompt: String?, programPath: String, environment: [String: String]
    ) -> any FrontEndRun {
        choose(
            ParsedCall(commandLine: commandLine, prompt: prompt, programPath: programPath, environment: environment))
    }

    /// Whether `argument`, given alone, names a job of its own rather than a prompt's label: a front end's
    /// `jobOptions` (`--doctor`, `--boot-cue=first`), `--help` or `--version`.
    static func namesAJob(_ argument: String) -> Bool {
        let standard = Program.standardOptions.flatMap { option in
            ["--" + option.long] + (option.short.map { ["-" + String($0)] } ?? [])
        }
        if standard.contains(argument) { return true }
        return all.flatMap { $0.jobOptions }.contains { option in
            option.isFlag ? argument == "--" + option.name : argument.hasPrefix("--" + option.name + "=")
        }
    }
}
