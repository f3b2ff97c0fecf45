import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
import OTCPromptLoop
import OTCPromptSettings
import OTCPromptSpeech
import OTCPromptTerminal

/// A front end as the program runs it: what it needs before the shared context is built, and its run.
///
/// Each front end is one type in this folder, and `FrontEndRegistry` is the one place that maps the command line's
/// choice to it: nothing else asks which front end runs. A new front end is its own file, a case in `FrontEnd`'s
/// choice and a line in the registry.
protocol FrontEndRun {
    /// What it needs before the shared context is built: declared whole by every front end, so that a new one
    /// never takes another's needs by default.
    var needs: FrontEndNeeds { get }
    /// The exit status of a run that must not start at all, decided before the terminal is touched; nil: it runs.
    func refusal(environment: [String: String]) -> Int32?
    /// The problems of its own caller's input, said beside the config file's (cryptsetup's environment).
    func problems(environment: [String: String]) -> [String]
    /// The run, once the terminal is open (if it opens one) and the shared context is built.
    func run(_ context: RunContext) -> Int32
}

/// What a front end needs of the program before its run.
struct FrontEndNeeds: Equatable {
    /// Whether it asks at the controlling terminal, opened before anything that can wait (raw mode, signals
    /// handled): not a report, not `--stdin`, not a pinentry (whose terminal gpg-agent names for each dialog).
    var opensTerminal: Bool
    /// Whether a run with no terminal posts its question for a password agent instead of failing: an askpass
    /// does (a pinentry decides per dialog, in `PinentryDialog`); the plain prompt and a keyscript say there is no
    /// terminal.
    var postsWithoutTerminal: Bool
    /// Whether espeak-ng may load before the config file is read (`EngineWarmUp`) when the route is not known yet:
    /// false for a process that must hold its libraries only once chosen (the password agent).
    var warmsUpBeforeTheRoute: Bool
    /// Whether it keeps the terminal and the watch a previous image handed over (`AgentRenewal`): only the agent;
    /// any other run handed one starts afresh.
    var keepsRenewal: Bool
    /// Where the config file's problems go.
    var notices: NoticePlace

    /// A question asked at the terminal, its notices with the opening: the plain prompt's needs.
    static let askedAtTheTerminal = FrontEndNeeds(
        opensTerminal: true, postsWithoutTerminal: false, warmsUpBeforeTheRoute: true, keepsRenewal: false,
        notices: .withTheOpening)
}

extension FrontEndRun {
    var opensTerminal: Bool { needs.opensTerminal }
    var postsWithoutTerminal: Bool { needs.postsWithoutTerminal }
    var warmsUpBeforeTheRoute: Bool { needs.warmsUpBeforeTheRoute }
    var keepsRenewal: Bool { needs.keepsRenewal }
    var notices: NoticePlace { needs.notices }
    func refusal(environment: [String: String]) -> Int32? { nil }
    func problems(environment: [String: String]) -> [String] { [] }
}

/// Where a front end says the config file's problems.
enum NoticePlace {
    /// Shown above the field and spoken with the opening; on stderr too when that is not the prompt's terminal (a
    /// script's file), so they are never lost.
    case withTheOpening
    /// On stderr (gpg-agent's log), and with the first dialog's opening, once for the whole conversation.
    case standardErrorAndFirstDialog
    /// On stderr only: nothing is shown.
    case standardError
    /// Nowhere: nothing of the prompt's runs (a report, a tone).
    case nowhere
}

/// The command line's choice mapped to its front end: the one switch on which front end runs.
enum FrontEndRegistry {
    static func run(for choice: FrontEnd) -> any FrontEndRun {
        switch choice {
        case .prompt: PromptFrontEndRun()
        case .askpass(let prompt): AskpassFrontEndRun(prompt: prompt)
        case .touch(let prompt): TouchFrontEndRun(prompt: prompt)
        case .pinentry: PinentryFrontEndRun()
        case .stdin: StdinFrontEndRun()
        case .cryptsetup: CryptsetupFrontEndRun()
        case .doctor: DoctorFrontEndRun()
        case .bootCue(let cue): BootCueFrontEndRun(cue: cue)
        case .agent(let query): AgentFrontEndRun(query: query)
        case .polkitAgent(let process): PolkitFrontEndRun(process: process)
        }
    }

    /// The front end a command line asks for (`FrontEnd.choose`).
    static func choose(
        commandLine: SettingValues, prompt: String?, programPath: String, environment: [String: String]
    ) -> any FrontEndRun {
        run(
            for: FrontEnd.choose(
                commandLine: commandLine, prompt: prompt, programPath: programPath, environment: environment))
    }
}
