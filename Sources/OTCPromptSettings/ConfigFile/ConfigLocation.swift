import OTCPromptCore

extension ConfigFileSettings {
    /// The configuration file to read: `OTC_PROMPT_CONFIG`, else `$XDG_CONFIG_HOME/otc-prompt/config`, else
    /// `$HOME/.config/otc-prompt/config`; nil when none of these is set.
    ///
    /// An empty variable counts as unset, and so does a relative `XDG_CONFIG_HOME`, as the XDG base directory
    /// specification requires.
    public static func configPath(environment: [String: String]) -> String? {
        if let path = environment["OTC_PROMPT_CONFIG"], !path.isEmpty { return path }
        if let base = environment["XDG_CONFIG_HOME"], base.hasPrefix("/") {
            return joined(base, "otc-prompt/config")
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return joined(home, ".config/otc-prompt/config")
        }
        return nil
    }

    /// `path` as the user would type it: "~/.config/otc-prompt/config" rather than "/home/joe/.config/…".
    public static func displayPath(_ path: String, environment: [String: String]) -> String {
        guard let home = environment["HOME"], home.hasPrefix("/"), home != "/" else { return path }
        let base = home.hasSuffix("/") ? String(home.dropLast()) : home
        if path.hasPrefix(base + "/") { return "~" + path.dropFirst(base.count) }
        return path
    }

    /// Finds, reads and parses the user's file; every failure becomes a problem, never an error.
    ///
    /// A missing file is normal (most users have none) unless `OTC_PROMPT_CONFIG` names it: then the user asked
    /// for that file and is told it is not there.
    /// A file that exists but cannot be read fails closed: masked and silent, said in the one problem. A file that
    /// is refused (`ConfigFileRefusal`: another user's, not a text file) is ignored.
    /// - Parameter readFile: returns the file's text, nil when it does not exist, and throws an error whose
    ///   description is one line when it cannot be read (`ConfigFile.readConfig` in the host module).
    public static func load(
        environment: [String: String], readFile: (String) throws -> String?
    ) -> ConfigFileSettings {
        guard let path = configPath(environment: environment) else { return ConfigFileSettings() }
        let source = displayPath(path, environment: environment)
        let text: String?
        do {
            text = try readFile(path)
        } catch {
            let reason = UntrustedText.visible(String(describing: error))
            var settings = ConfigFileSettings(source: source)
            guard (error as? ConfigFileRefusal) == nil else {
                settings.problems = [SettingProblem(source: source, line: nil, message: "\(reason); ignored")]
                return settings
            }
            // A file that is there but cannot be read (no descriptor left, EACCES, EIO) may say mask = true and
            // speech = "none": the run is as private as it could have asked, until an option says otherwise.
            settings.values[Settings.mask] = true
            settings.values[Settings.speech] = SpeechChoice.none
            settings.problems = [
                SettingProblem(
                    source: source, line: nil, message: "\(reason); the field is masked and nothing is spoken")
            ]
            return settings
        }
        guard let text else {
            let named = environment["OTC_PROMPT_CONFIG"].map { !$0.isEmpty } ?? false
            var settings = ConfigFileSettings()
            if named {
                settings.problems = [
                    SettingProblem(source: source, line: nil, message: "no such file (OTC_PROMPT_CONFIG); ignored")
                ]
            }
            return settings
        }
        return parse(text, source: source)
    }

    private static func joined(_ base: String, _ relative: String) -> String {
        base.hasSuffix("/") ? base + relative : base + "/" + relative
    }
}

/// A configuration file that was read but refused (another user's, writable by others, not a text file): its words
/// are ignored, and the defaults apply.
public struct ConfigFileRefusal: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
