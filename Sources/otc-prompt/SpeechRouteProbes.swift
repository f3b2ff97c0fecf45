import OTCPromptCore
import OTCPromptSettings
import OTCPromptSpeechDispatcher
import OTCPromptTerminal

/// `SpeechRoute.choose` with the live probes: the user's socket, /proc and /sys, PATH.
enum SpeechRouteProbes {
    /// How long `auto` waits for a speech-dispatcher to answer before it looks elsewhere: a live server answers
    /// a connect and `GET OUTPUT_MODULE` within a few milliseconds.
    static let answerTimeout: Duration = .milliseconds(300)

    static func route(for choice: SpeechChoice, environment: [String: String]) -> SpeechRoute {
        SpeechRoute.choose(
            chosen: choice == .auto ? nil : SpeechRoute.Kind(rawValue: choice.rawValue), environment: environment,
            speechDispatcherAnswers: { speechDispatcherModule(environment) != nil },
            screenReader: { screenReader() },
            speechDispatcherInstalled: {
                RunningPrograms.isInstalled("speech-dispatcher", searchPath: environment["PATH"])
            })
    }

    /// The route when no probe is needed to choose it (an audio file, the user's choice, an SSH session
    /// with no audio forwarded); nil when the automatic choice has to ask the speech server, /proc or
    /// PATH, which is left to the voice's own thread (`VoiceStartup`).
    static func decidedAtOnce(
        for choice: SpeechChoice, intoAudioFile: Bool, environment: [String: String]
    ) -> SpeechRoute? {
        if intoAudioFile { return .intoAudioFile }
        var probed = false
        let route = SpeechRoute.choose(
            chosen: choice == .auto ? nil : SpeechRoute.Kind(rawValue: choice.rawValue), environment: environment,
            speechDispatcherAnswers: {
                probed = true
                return false
            },
            screenReader: {
                probed = true
                return nil
            },
            speechDispatcherInstalled: {
                probed = true
                return false
            })
        return probed ? nil : route
    }

    /// What every probe found, each asked once, and the route they give: `--doctor` reports them all.
    struct Findings {
        var route: SpeechRoute
        var speechDispatcherModule: String?
        var speechDispatcherInstalled: Bool
        var screenReader: String?
    }

    static func findings(for choice: SpeechChoice, environment: [String: String]) -> Findings {
        let module = speechDispatcherModule(environment)
        let installed = RunningPrograms.isInstalled("speech-dispatcher", searchPath: environment["PATH"])
        let reader = screenReader()
        let route = SpeechRoute.choose(
            chosen: choice == .auto ? nil : SpeechRoute.Kind(rawValue: choice.rawValue), environment: environment,
            speechDispatcherAnswers: { module != nil }, screenReader: { reader },
            speechDispatcherInstalled: { installed })
        return Findings(
            route: route, speechDispatcherModule: module, speechDispatcherInstalled: installed, screenReader: reader)
    }

    /// The output module of the speech-dispatcher that answers at the user's address; nil when none answers.
    static func speechDispatcherModule(_ environment: [String: String]) -> String? {
        try? SpeechDispatcherBackend.probe(
            environment: environment, user: UserAccount.current, timeout: answerTimeout
        ).get()
    }

    static func screenReader() -> String? {
        ScreenReaders.running(
            among: RunningPrograms.names(), speakupLoaded: RunningPrograms.exists("/sys/accessibility/speakup"))
    }
}
