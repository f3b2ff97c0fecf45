import OTCPromptCore
import OTCPromptHost
import OTCPromptSettings
import OTCPromptSpeech
import OTCPromptSpeechDispatcher
import OTCPromptTerminal

/// `SpeechRoute.choose` with the live probes: the terminal's login session, the user's socket, /proc and
/// /sys, PATH.
enum SpeechRouteProbes {
    /// How long `auto` waits for a speech-dispatcher to answer before it looks elsewhere: a live server answers
    /// a connect and `GET OUTPUT_MODULE` within a few milliseconds.
    static let answerTimeout: Duration = .milliseconds(300)

    /// The terminal the prompt uses, whose login session says where the person typing is.
    enum PromptTerminal: Sendable {
        /// This process's controlling terminal (before the prompt's terminal is open).
        case controlling
        /// The terminal open on this descriptor (the prompt's, or the one a pinentry was told).
        case descriptor(Int32)
        /// A terminal already followed to its login session (the prompt's, once for the voice and the Esc wait).
        case located(SessionLocation)

        var location: SessionLocation {
            switch self {
            case .controlling: LoginSession.locate(descriptor: nil)
            case .descriptor(let descriptor): LoginSession.locate(descriptor: descriptor)
            case .located(let location): location
            }
        }
    }

    static func route(for choice: SpeechChoice, environment: [String: String], terminal: PromptTerminal)
        -> SpeechRoute
    {
        if let chosen = chosen(choice) { return ownAudio(chosen, environment) }
        let location = terminal.location
        return ownAudio(
            SpeechRoute.choose(
                chosen: nil, location: location, environment: environment,
                speechDispatcher: { speechDispatcher(environment).probe },
                screenReader: { screenReader(location: location) },
                speechDispatcherInstalled: {
                    RunningPrograms.isInstalled("speech-dispatcher", searchPath: environment["PATH"])
                }), environment)
    }

    /// The route, unless it plays through another user's PulseAudio: then text lines, and why.
    static func ownAudio(_ route: SpeechRoute, _ environment: [String: String]) -> SpeechRoute {
        guard route.kind == .espeak, let path = PulseAudioSocket.path(environment: environment) else { return route }
        return route.refusingForeignPulseAudio(at: path, refused: foreignPulseAudio(at: path, environment))
    }

    /// Refuses every audio server for this process (`PulseAudioRefusal`) when the PulseAudio that libpulse
    /// would find in `environment` (the process's own: libpulse and pcaudiolib read it themselves) is not
    /// the user's own.
    static func refuseForeignPulseAudio(environment: [String: String]) {
        guard let path = PulseAudioSocket.path(environment: environment),
            let why = foreignPulseAudio(at: path, environment)
        else { return }
        PulseAudioRefusal.refuse(because: "the PulseAudio at \(path) is refused (\(why))")
    }

    /// Why the PulseAudio socket at `path` is not the user's, nil when it is (or nothing is there yet): the socket and
    /// its directory (`LocalSocket.foreignOwner`), and, where libpulse looks in `XDG_RUNTIME_DIR` itself (no
    /// `PULSE_SERVER`, no `PULSE_RUNTIME_PATH`), that directory: one of another user's (root after `su`, keeping the
    /// user's) libpulse refuses with a message of its own on stderr, where the caller or a screen reader would get it.
    private static func foreignPulseAudio(at path: String, _ environment: [String: String]) -> String? {
        if let why = LocalSocket.foreignOwner(of: path, uid: UserAccount.currentUID) { return why }
        guard (environment["PULSE_SERVER"] ?? "").isEmpty, (environment["PULSE_RUNTIME_PATH"] ?? "").isEmpty,
            let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty
        else { return nil }
        do { try FileTrust.directory(ownedBy: UserAccount.currentUID).check(path: runtime) } catch {
            guard case .owner = error else { return nil }
            return "XDG_RUNTIME_DIR \(runtime): \(error)"
        }
        return nil
    }

    /// The route when no probe is needed to choose it (an audio file, the user's choice, a person elsewhere
    /// with nothing forwarded); nil when the automatic choice has to ask the speech server, /proc or PATH,
    /// which is left to the voice's own thread (`VoiceStartup`). Where the person is costs a few reads of
    /// /proc (the terminal's session and its ancestors), so it is always asked.
    static func decidedAtOnce(
        for choice: SpeechChoice, intoAudioFile: Bool, environment: [String: String], terminal: PromptTerminal
    ) -> SpeechRoute? {
        if intoAudioFile { return .intoAudioFile }
        if let chosen = chosen(choice) { return ownAudio(chosen, environment) }
        var probed = false
        let route = SpeechRoute.choose(
            chosen: nil, location: terminal.location, environment: environment,
            speechDispatcher: {
                probed = true
                return .silent
            },
            screenReader: {
                probed = true
                return nil
            },
            speechDispatcherInstalled: {
                probed = true
                return false
            })
        return probed ? nil : ownAudio(route, environment)
    }

    /// What every probe found, each asked once, and the route they give: `--doctor` reports them all.
    struct Findings {
        var route: SpeechRoute
        var location: SessionLocation
        var speechDispatcher: SpeechDispatcherFinding
        var speechDispatcherInstalled: Bool
        var screenReader: String?
    }

    static func findings(for choice: SpeechChoice, environment: [String: String], terminal: PromptTerminal)
        -> Findings
    {
        let location = terminal.location
        let server = speechDispatcher(environment)
        let installed = RunningPrograms.isInstalled("speech-dispatcher", searchPath: environment["PATH"])
        let reader = screenReader(location: location)
        let route = ownAudio(
            chosen(choice)
                ?? SpeechRoute.choose(
                    chosen: nil, location: location, environment: environment,
                    speechDispatcher: { server.probe }, screenReader: { reader },
                    speechDispatcherInstalled: { installed }), environment)
        return Findings(
            route: route, location: location, speechDispatcher: server, speechDispatcherInstalled: installed,
            screenReader: reader)
    }

    /// What the speech-dispatcher at the user's address gave: its output module when it answers, why it was
    /// refused when it is not the user's own.
    struct SpeechDispatcherFinding {
        var module: String?
        var refused: String?
        var probe: SpeechServerProbe {
            if module != nil { return .answers }
            return refused.map(SpeechServerProbe.refused) ?? .silent
        }
    }

    static func speechDispatcher(_ environment: [String: String]) -> SpeechDispatcherFinding {
        switch SpeechDispatcherBackend.probe(
            environment: environment, user: UserAccount.current, timeout: answerTimeout)
        {
        case .success(let module): SpeechDispatcherFinding(module: module)
        case .failure(.notYours(_, let why)): SpeechDispatcherFinding(refused: why)
        case .failure: SpeechDispatcherFinding()
        }
    }

    /// A screen reader the user runs; brltty and Speakup only when the person is at the console they serve.
    static func screenReader(location: SessionLocation) -> String? {
        ScreenReaders.running(
            among: RunningPrograms.names(ownedBy: UserAccount.currentUID),
            speakupLoaded: RunningPrograms.exists("/sys/accessibility/speakup"), onConsole: location.place == .console)
    }

    /// The user's own choice, which needs no probe; nil for `auto`.
    private static func chosen(_ choice: SpeechChoice) -> SpeechRoute? {
        guard choice != .auto, let kind = SpeechRoute.Kind(rawValue: choice.rawValue) else { return nil }
        return SpeechRoute.choose(
            chosen: kind, location: SessionLocation(.unknown, evidence: ""), environment: [:],
            speechDispatcher: { .silent }, screenReader: { nil }, speechDispatcherInstalled: { false })
    }
}
