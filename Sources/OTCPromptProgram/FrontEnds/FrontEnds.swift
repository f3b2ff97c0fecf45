import OTCPromptCore
import OTCPromptSettings

/// Every front end, listed once; the one place that chooses which runs.
enum FrontEnds {
    /// Every front end the program has. Their order here does not matter: each one's `priority` does.
    static var all: [any FrontEndRun.Type] {
        [
            DoctorFrontEndRun.self, BootCueFrontEndRun.self, PinentryFrontEndRun.self, StdinFrontEndRun.self,
            CryptsetupFrontEndRun.self, AgentFrontEndRun.self, PolkitFrontEndRun.self, TouchFrontEndRun.self,
            AskpassFrontEndRun.self, PromptFrontEndRun.self, TouchWatchFrontEndRun.self,
        ]
    }

    /// The arguments the parser reads: the first front end, by priority, that knows the raw call by them says how
    /// (an askpass's prompt as data), else they are read as they are.
    static func argumentsToParse(_ call: FrontEndCall) -> [String] {
        firstAnswer { $0.argumentsToParse(call) } ?? call.arguments
    }

    /// The front end a parsed call asks for: the first, by priority, that recognises it.
    static func choose(_ call: ParsedCall) -> any FrontEndRun {
        // The plain prompt recognises every call; were it ever left out of the list, this is still what runs.
        firstAnswer { $0.recognise(call) } ?? PromptFrontEndRun()
    }

    /// What the front end of the lowest priority among those that answer `ask` answers; nil when none does. Every
    /// front end is asked (their answers are pure), so the list needs no sorting.
    private static func firstAnswer<Answer>(_ ask: (any FrontEndRun.Type) -> Answer?) -> Answer? {
        var first: (priority: Int, answer: Answer)?
        for frontEnd in all {
            guard let answer = ask(frontEnd) else { continue }
            if first.map({ frontEnd.priority < $0.priority }) ?? true { first = (frontEnd.priority, answer) }
        }
        return first?.answer
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
        for option in Program.standardOptions {
            if argument == "--" + option.long || option.short.map({ argument == "-" + String($0) }) == true {
                return true
            }
        }
        for frontEnd in all {
            for option in frontEnd.jobOptions {
                if option.isFlag ? argument == "--" + option.name : argument.hasPrefix("--" + option.name + "=") {
                    return true
                }
            }
        }
        return false
    }
}
