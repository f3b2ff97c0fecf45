import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
import OTCPromptLoop
import OTCPromptSettings
import OTCPromptSpeech
import OTCPromptTerminal

/// A front end: one type that says how it is recognised, what it needs and how it runs, listed once in
/// `FrontEnds.all`.
///
/// Its options are declared in `Settings` (the help, the man page and the completions are generated from there);
/// nothing outside its own file asks which front end runs. docs/architecture.md ("Adding a front end") has the recipe.
protocol FrontEndRun {
    /// Its place in the choice: `FrontEnds.choose` asks each front end in rising order, and the first that recognises
    /// the call runs. The parser's `--help` and `--version` come before all of them; the plain prompt, last.
    static var priority: Int { get }
    /// The options that, given alone, name this front end's job rather than a prompt's setting (`--doctor`): an
    /// askpass variable exported in a person's shell never turns them into a prompt (`AskpassArguments`).
    static var jobOptions: [any AnySetting] { get }
    /// How the parser must read the raw arguments when this front end knows its call by them (an askpass's prompt,
    /// data, never options); nil: as they are. Asked in the order of `priority`, before any option is parsed.
    static func argumentsToParse(_ call: FrontEndCall) -> [String]?
    /// This front end, when the parsed command line and the caller's environment ask for it; nil: not this one.
    static func recognise(_ call: ParsedCall) -> Self?
    /// What it needs before the shared context is built: declared whole by every front end, so that a new one
    /// never takes another's needs by default.
    static var needs: FrontEndNeeds { get }
    /// The exit status of a run that must not start at all, decided before the terminal is touched; nil: it runs.
    func refusal(environment: [String: String]) -> Int32?
    /// The problems of its own caller's input, said beside the config file's (cryptsetup's environment).
    func problems(environment: [String: String]) -> [String]
    /// The run, once the terminal is open (if it opens one) and the shared context is built.
    func run(_ context: RunContext) -> Int32
}

/// The call as it arrives, before any option is read.
struct FrontEndCall {
    /// The arguments after the program's name.
    var arguments: [String]
    /// argv[0]; a program named `pinentry-otc` is a pinentry.
    var programPath: String
    var environment: [String: String]
    /// Who reads standard output: an askpass caller reads it itself.
    var standardOutput: StandardOutputReader
}

/// The call once its options are read: what a front end is recognised by.
struct ParsedCall {
    /// What the command line set; front ends are chosen by command-line options only, never by the config file.
    var commandLine: SettingValues
    /// The one positional argument: the field's label, or the askpass prompt.
    var prompt: String?
    var programPath: String
    /// The caller's variables that name the protocol it speaks (SSH_ASKPASS_PROMPT); never a choice of where or how
    /// to speak.
    var environment: [String: String]
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

    /// Nothing of the controlling terminal before the run (a report, a tone, a line of stdin, gpg-agent's own
    /// terminals): no terminal opened, nothing posted, no voice loaded early, no renewal kept.
    static func withoutTheTerminal(notices: NoticePlace) -> FrontEndNeeds {
        FrontEndNeeds(
            opensTerminal: false, postsWithoutTerminal: false, warmsUpBeforeTheRoute: false, keepsRenewal: false,
            notices: notices)
    }
}

/// A front end that one flag of its own chooses, and nothing else (`--doctor`, `--stdin`, `--cryptsetup`): that
/// flag is its job option and its recognition.
protocol ChosenByItsFlag: FrontEndRun {
    static var flag: Setting<Bool> { get }
    init()
}

extension ChosenByItsFlag {
    static var jobOptions: [any AnySetting] { [flag] }
    static func recognise(_ call: ParsedCall) -> Self? { call.commandLine.value(flag) ? Self() : nil }
}

extension FrontEndRun {
    static var jobOptions: [any AnySetting] { [] }
    static func argumentsToParse(_ call: FrontEndCall) -> [String]? { nil }
    var needs: FrontEndNeeds { Self.needs }
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
