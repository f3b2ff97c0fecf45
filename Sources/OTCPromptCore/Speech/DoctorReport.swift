/// What `otc-prompt --doctor` says: how announcements would reach the user and why, in a few lines a
/// blind user who hears nothing can act on. The same lines are shown and spoken.
public struct DoctorReport: Equatable, Sendable {
    public var route: SpeechRoute
    /// Where speech-dispatcher is looked for, and its output module when it answers (nil: no answer).
    public var speechDispatcherAddress: String
    public var speechDispatcherModule: String?
    public var speechDispatcherInstalled: Bool
    public var screenReader: String?
    /// Whether an audio device answered espeak-ng, and if not, why.
    public var audioDevice: Result<Void, AudioProblem>
    /// One line for each speech library (libespeak-ng, libpcaudio, libpulse) that cannot be loaded: which, why,
    /// and the package to install. Empty when they all load.
    public var speechLibraryProblems: [String]
    /// The config file read, nil when there is none; with its problems.
    public var configFile: String?
    public var configProblems: [String]

    public struct AudioProblem: Error, Equatable, Sendable {
        public var reason: String
        public init(_ reason: String) { self.reason = reason }
    }

    public init(
        route: SpeechRoute, speechDispatcherAddress: String, speechDispatcherModule: String?,
        speechDispatcherInstalled: Bool, screenReader: String?, audioDevice: Result<Void, AudioProblem>,
        configFile: String?, configProblems: [String], speechLibraryProblems: [String] = []
    ) {
        self.speechLibraryProblems = speechLibraryProblems
        self.route = route
        self.speechDispatcherAddress = speechDispatcherAddress
        self.speechDispatcherModule = speechDispatcherModule
        self.speechDispatcherInstalled = speechDispatcherInstalled
        self.screenReader = screenReader
        self.audioDevice = audioDevice
        self.configFile = configFile
        self.configProblems = configProblems
    }

    public static func == (a: DoctorReport, b: DoctorReport) -> Bool { a.lines == b.lines }

    /// One sentence a line, the answer first.
    public var lines: [String] {
        var lines = ["Speech: \(route.kind.rawValue), because \(route.reason)."]
        if let module = speechDispatcherModule {
            lines.append("speech-dispatcher answers at \(speechDispatcherAddress), with the \(module) module.")
        } else {
            lines.append(
                "speech-dispatcher does not answer at \(speechDispatcherAddress); it is "
                    + (speechDispatcherInstalled ? "installed." : "not installed."))
        }
        lines.append(screenReader.map { "Screen reader: \($0) runs." } ?? "Screen reader: none found running.")
        lines += speechLibraryProblems.map { "Speech library: \($0)." }
        switch audioDevice {
        case .success: lines.append("Audio device: espeak-ng can play on it.")
        case .failure(let problem): lines.append("Audio device: none: \(problem.reason).")
        }
        if let configFile {
            let problems = configProblems.isEmpty ? "no problems" : "\(configProblems.count) problems, shown below"
            lines.append("Config file: \(configFile), read, \(problems).")
        } else {
            lines.append("Config file: none.")
        }
        return lines + configProblems
    }
}
