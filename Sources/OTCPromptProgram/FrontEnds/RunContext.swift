import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
import OTCPromptLoop
import OTCPromptSettings
import OTCPromptSpeech
import OTCPromptTerminal

/// What every front end's run starts from, built once by `OTCPromptCommand`: the settings (the file's, overridden
/// by the command line), the field they describe, the voice, the notices to say, and the terminal if one was opened.
struct RunContext {
    let environment: [String: String]
    /// What the command line set (it wins over the file).
    let commandLine: SettingValues
    /// The config file as read, with the places of its values.
    let file: ConfigFileSettings
    /// The file's values overridden by the command line's.
    let settings: SettingValues
    let language: Language
    let configuration: PromptConfiguration
    let check: CheckSettings?
    let voice: SpeechOptions
    /// The config file's problems and the front end's own (`FrontEndRun.problems`), said where it says
    /// (`FrontEndRun.notices`).
    let notices: [String]
    /// "The config file took too long", said once above the field and with the opening.
    let tooSlowNotice: String?
    /// The controlling terminal, raw, signals handled; nil when the front end opens none or none was there.
    let terminal: Terminal?
    /// What the agent's previous image handed over; nil for every other front end.
    let renewal: AgentRenewal?
    /// argv, for a renewal's next image.
    let arguments: [String]

    /// The user's memory of what was asked (`AskMemory`), in the state directory.
    func memory() -> AskMemory { AskMemory(store: StateDirectory.open(environment: environment)) }

    /// The prompt the settings describe, asking `request`; `memory` is the run's.
    func program(request: Request, memory: AskMemory) -> PromptProgram {
        // A voice the file names but that is not installed falls back to the language's voice; one the command
        // line names is a usage error.
        let voiceLocation = commandLine[Settings.voice] == nil ? file.location(of: Settings.voice) : nil
        return PromptProgram(
            request: request, check: check, speech: settings.value(Settings.speech),
            speechLogPath: settings[Settings.speechLog], voice: voice, voiceLocation: voiceLocation,
            audioFile: settings[Settings.audioFile], appearance: Appearance(settings), environment: environment,
            memory: memory, escapeDelay: settings[Settings.escapeDelay])
    }

    /// `request` with the config file's slowness and, where they are said with the opening, its problems; those go
    /// to stderr as well when that is not the prompt's terminal.
    func withNotices(_ request: Request, place: NoticePlace) -> Request {
        var request = request
        if let tooSlowNotice { request = request.withDetail(tooSlowNotice) }
        switch place {
        case .withTheOpening:
            if !StandardError.isSameTerminal(as: terminal) { writeNoticesOnStandardError() }
            return request.withDetails(notices)
        case .standardErrorAndFirstDialog, .standardError:
            writeNoticesOnStandardError()
            return request
        case .nowhere:
            return request
        }
    }

    /// `request` asked at the terminal; with none, posted for the user's password agent (`AgentQuestion`), for the
    /// front ends that `postsWithoutTerminal`. The exit status, once the answer is delivered.
    func askOrPost(_ request: Request, memory: AskMemory) -> Int32 {
        if let terminal {
            return program(request: request, memory: memory).run(on: terminal, delivery: Delivery.init)
        }
        let agent = AgentQuestion(
            environment: environment, timeLimit: configuration.timeLimit, caller: AgentQuestion.askpassCaller)
        guard let outcome = agent.ask(request) else { return ExitStatus.noTerminal }
        return agent.deliver(Delivery(outcome))
    }

    func writeNoticesOnStandardError() {
        for notice in notices { StandardError.writeLine(notice) }
    }
}
