import OTCPromptCore
import OTCPromptHost
import OTCPromptSettings
import OTCPromptTerminal

/// The user's config file, read with a deadline (no wait without a deadline): a file on a hung file system gives the
/// defaults after `ConfigFile.deadline`, said once, and a signal meanwhile ends the prompt at once.
enum ConfigFileLoad {
    /// What reading the file came to.
    enum Outcome {
        /// The file's settings (and problems), or none when there is no file.
        case loaded(ConfigFileSettings)
        /// The file did not answer in time: the defaults, and the file as the user would type it, to say so.
        case tooSlow(path: String)
        /// A watched signal arrived meanwhile.
        case signal(Int32)
    }

    static func load(environment: [String: String], signals: SignalWatcher?) -> Outcome {
        guard let path = ConfigFileSettings.configPath(environment: environment) else {
            return .loaded(ConfigFileSettings())
        }
        switch ConfigFile.read(path: path, signals: signals) {
        case .finished(let result):
            // The text is parsed by the settings' own rules, a missing or unusable file included: a file that
            // could not be read fails closed, one that was read and refused is ignored.
            return .loaded(
                ConfigFileSettings.load(environment: environment) { _ in
                    switch result {
                    case .success(let text): return text
                    case .failure(.unreadableConfig(let reason)): throw HostError.unreadableConfig(reason)
                    case .failure(let refusal): throw ConfigFileRefusal(refusal.description)
                    }
                })
        case .timedOut:
            return .tooSlow(path: ConfigFileSettings.displayPath(path, environment: environment))
        case .signal(let signal):
            return .signal(signal)
        }
    }

    /// The file for a run: its settings, and the file as the user would type it when it did not answer in
    /// time (the prompt says so with its opening). Without a terminal (--stdin, --doctor, a pinentry), that
    /// is one of the file's problems instead. A signal meanwhile restores the terminal and ends the process
    /// as that signal.
    static func forRun(environment: [String: String], terminal: Terminal?) -> (
        file: ConfigFileSettings, tooSlow: String?
    ) {
        switch load(environment: environment, signals: terminal?.signalWatcher) {
        case .loaded(let file):
            return (file, nil)
        case .tooSlow(let path) where terminal == nil:
            var file = ConfigFileSettings(source: path)
            file.problems.append(
                SettingProblem(
                    source: path, line: nil,
                    message: "did not answer within \(deadlineSeconds) s; the defaults are used"))
            return (file, nil)
        case .tooSlow(let path):
            return (ConfigFileSettings(), path)
        case .signal(let signal):
            terminal?.restore()
            guard let watcher = terminal?.signalWatcher else { ProcessExit.exit(ExitStatus.signalled(signal)) }
            watcher.reraise(signal)
        }
    }

    /// The whole seconds of `ConfigFile.deadline`, as the notice says them.
    static var deadlineSeconds: Int { Int(ConfigFile.deadline.components.seconds) }
}
