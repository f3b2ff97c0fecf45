/// What `otc-prompt --doctor` says: how announcements would reach the user and why, in a few lines a
/// blind user who hears nothing can act on. The same lines are shown and spoken.
public struct DoctorReport: Equatable, Sendable {
    /// The route `auto` (or the user's choice) gives.
    public var route: SpeechRoute
    /// Where the person typing is, and the evidence.
    public var location: SessionLocation
    /// Where speech-dispatcher is looked for, and its output module when it answers (nil: no answer).
    public var speechDispatcherAddress: String
    public var speechDispatcherModule: String?
    /// Why the speech-dispatcher there is not used although something listens: not the user's own.
    public var speechDispatcherRefused: String?
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
    /// How long a lone Esc waits here, and why; nil when not asked.
    public var escapeWait: EscapeWait?
    /// The `escape-time` of the tmux server the prompt runs under, nil when not in tmux or not known.
    public var tmuxEscapeTime: Duration?
    /// From this long on, tmux's own Esc wait is heard: every Esc is late by it.
    public static let noticeableEscapeTime: Duration = .milliseconds(100)

    public struct AudioProblem: Error, Equatable, Sendable {
        public enum Kind: Equatable, Sendable {
            /// No device, or no server to play on.
            case noDevice
            /// A server is there but refused this user (PulseAudio's "Access denied": another user's server).
            case refusedAccess
        }

        public var kind: Kind
        public var reason: String
        public init(_ reason: String, kind: Kind = .noDevice) {
            self.kind = kind
            self.reason = reason
        }
    }

    public init(
        route: SpeechRoute, location: SessionLocation, speechDispatcherAddress: String,
        speechDispatcherModule: String?, speechDispatcherRefused: String? = nil, speechDispatcherInstalled: Bool,
        screenReader: String?, audioDevice: Result<Void, AudioProblem>, configFile: String?, configProblems: [String],
        speechLibraryProblems: [String] = []
    ) {
        self.route = route
        self.location = location
        self.speechDispatcherAddress = speechDispatcherAddress
        self.speechDispatcherModule = speechDispatcherModule
        self.speechDispatcherRefused = speechDispatcherRefused
        self.speechDispatcherInstalled = speechDispatcherInstalled
        self.screenReader = screenReader
        self.audioDevice = audioDevice
        self.configFile = configFile
        self.configProblems = configProblems
        self.speechLibraryProblems = speechLibraryProblems
    }

    public static func == (a: DoctorReport, b: DoctorReport) -> Bool { a.lines == b.lines }

    /// The way the user really gets announcements: espeak-ng with no audio device is text lines.
    public var effectiveRoute: SpeechRoute {
        guard route.kind == .espeak, case .failure(let problem) = audioDevice else { return route }
        let why = problem.kind == .refusedAccess ? "the audio server refused it access" : "it has no audio device"
        return SpeechRoute(.text, reason: "espeak-ng was chosen (\(route.reason)), but \(why)")
    }

    /// One sentence a line, the answer first, then the evidence.
    public var lines: [String] {
        let used = effectiveRoute
        var lines = ["Speech: \(used.kind.rawValue), because \(used.reason)."]
        lines.append(whereYouAre)
        if let escapeWait { lines.append(escapeWait.sentence) }
        if let escapeTime = tmuxEscapeTime, escapeTime >= Self.noticeableEscapeTime {
            lines.append(
                "tmux delays every Esc by its escape-time, \(Int(escapeTime / .milliseconds(1))) ms, before the prompt "
                    + "sees it; set -sg escape-time 10 in ~/.tmux.conf shortens that.")
        }
        if let module = speechDispatcherModule {
            lines.append("speech-dispatcher answers at \(speechDispatcherAddress), with the \(module) module.")
        } else if let refused = speechDispatcherRefused {
            lines.append("speech-dispatcher at \(speechDispatcherAddress) is refused: \(refused).")
        } else {
            let started = route.kind == .speechd && route.autospawn ? " and is started for the prompt" : ""
            lines.append(
                "speech-dispatcher does not answer at \(speechDispatcherAddress) yet; it is "
                    + (speechDispatcherInstalled ? "installed\(started)." : "not installed."))
        }
        lines.append(
            screenReader.map { "Screen reader: \($0) runs, as you." } ?? "Screen reader: none of yours found running.")
        lines += speechLibraryProblems.map { "Speech library: \($0)." }
        switch audioDevice {
        case .success: lines.append("Audio device: espeak-ng can play on it.")
        case .failure(let problem) where problem.kind == .refusedAccess:
            lines.append("Audio device: the audio server refused access: \(problem.reason).")
        case .failure(let problem): lines.append("Audio device: none: \(problem.reason).")
        }
        if let configFile {
            let count = configProblems.count
            let problems =
                count == 0 ? "no problems" : "\(count) problem\(count == 1 ? "" : "s"), shown below"
            lines.append("Config file: \(configFile), read, \(problems).")
        } else {
            lines.append("Config file: none.")
        }
        return lines + configProblems
    }

    private var whereYouAre: String {
        let owner = location.owner.map { ", a session of uid \($0)" } ?? ""
        switch location.place {
        case .remote: return "Where you are: at another machine\(owner), because \(location.evidence)."
        case .console: return "Where you are: at this machine's console\(owner), because \(location.evidence)."
        case .local: return "Where you are: at this machine\(owner), because \(location.evidence)."
        case .unknown: return "Where you are: not known, because \(location.evidence)."
        }
    }
}
