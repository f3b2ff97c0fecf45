import OTCPromptCore
import Testing

@testable import OTCPromptSettings

private let source = "~/.config/otc-prompt/config"

@Suite struct SettingDeclarationTests {
    @Test func everySettingHasAUniqueNameHelpAndADefaultOrANote() {
        #expect(Set(Settings.all.map(\.name)).count == Settings.all.count)
        for setting in Settings.all {
            #expect(!setting.summary.isEmpty && setting.summary.hasSuffix("."), "\(setting.name)")
            #expect(
                setting.defaultDescription != nil || setting.valueName == "PATH" || setting.name == "check",
                "\(setting.name) has no default and no note")
            #expect(!setting.allowed.isEmpty)
        }
    }

    /// Every preference a pinentry or askpass user may need is a key; what a caller asks for and the actions are not.
    @Test func theFileHoldsEveryPreferenceAndNoCallersSetting() {
        #expect(
            ConfigFileSettings.knownKeys
                == "mask, no-auto-submit, lang, speech, braille, speech-log, verbosity, spell, escape-delay, "
                + "agent-echo-user-requests, touch-cue, touch-says-done, voice, rate, volume, pitch, "
                + "audio-file, style, start-color, end-color, placeholder")
    }

    @Test func aFileNameInTheFileIsUsedWhenItIsAFullPath() {
        let settings = ConfigFileSettings.parse(
            "speech-log = \"/tmp/speech.jsonl\"\nmask = true\nescape-delay = \"0.8\"\n", source: source)
        #expect(settings.problems.isEmpty, "\(settings.problems)")
        #expect(settings.values[Settings.speechLog] == "/tmp/speech.jsonl")
        #expect(settings.values[Settings.mask] == true)
        #expect(settings.values[Settings.escapeDelay] == .milliseconds(800))
    }

    /// A number out of any range (past Int64, past the setting's) is one line and the default, never a trap.
    @Test(
        arguments: [
            "rate = 99999999999999999999999", "pitch = -9223372036854775809", "volume = 9223372036854775807",
            "escape-delay = \"1e400\"", "escape-delay = \"-0\"", "rate = +-1", "volume = 0x7fffffffffffffff",
        ])
    func aNumberOutOfRangeIsOneLineAndTheDefault(line: String) {
        let settings = ConfigFileSettings.parse(line + "\nverbosity = \"terse\"\n", source: source)
        #expect(settings.problems.count == 1, "\(settings.problems)")
        #expect(settings.problems.first?.description.hasPrefix("otc-prompt: \(source):1: ") == true)
        #expect(settings.values[Settings.rate] == nil && settings.values[Settings.pitch] == nil)
        #expect(settings.values[Settings.volume] == nil && settings.values[Settings.escapeDelay] == nil)
        #expect(settings.values[Settings.verbosity] == .terse, "the next line is still read")
    }

    @Test(arguments: ["speech-log = \"speech.jsonl\"", "audio-file = \"~/speech.wav\""])
    func aRelativeFileNameInTheFileIsReportedAndIgnored(line: String) {
        let settings = ConfigFileSettings.parse(line + "\n", source: source)
        #expect(
            settings.problems.map(\.description) == [
                "otc-prompt: \(source):1: \(line.prefix { $0 != " " }) must be a full path, starting with /; ignored"
            ])
        #expect(settings.values[Settings.speechLog] == nil && settings.values[Settings.audioFile] == nil)
    }

    @Test(arguments: ["timeout = 30", "check = \"true\"", "length = 8", "pinentry = true", "doctor = true"])
    func whatACallerAsksForAndTheActionsStayOnTheCommandLine(line: String) {
        let settings = ConfigFileSettings.parse(line + "\n", source: source)
        #expect(settings.problems.first?.message.hasPrefix("unknown setting") == true, "\(settings.problems)")
    }

    @Test func speechOffersEveryBackend() {
        #expect(Settings.speech.choices == ["auto", "speechd", "espeak", "text", "none"])
    }

    @Test(arguments: [
        ("rate", "80", true), ("rate", "450", true), ("rate", "79", false), ("rate", "451", false),
        ("volume", "0", true), ("volume", "201", false), ("pitch", "99", true), ("pitch", "100", false),
        ("lang", "pt_BR", true), ("lang", "fr_CA", true), ("lang", "xx", false), ("speech", "SPEECHD", true),
        ("speech", "loud", false),
        ("style", "boxes", true), ("style", "round", false), ("verbosity", "terse", true),
        ("voice", "en-us", true), ("voice", "en us", false), ("voice", "", false),
    ])
    func theCommandLineAndTheFileAcceptTheSameValues(name: String, text: String, accepted: Bool) throws {
        let setting = try #require(Settings.all.first { $0.name == name })
        let fileValue: ConfigValue = Int(text).map { .integer($0) } ?? .string(text)
        var values = SettingValues()
        let fileError = setting.apply(fileValue, to: &values)
        #expect((fileError == nil) == accepted)
        #expect(setting.isValidArgument(text) == accepted)
    }

    @Test func commandLineErrorsSayWhatTheValueMustBe() {
        #expect(
            Settings.rate.parseArgument("1000")
                == .failure(SettingError("must be a number from 80 to 450")))
        #expect(
            Settings.timeout.parseArgument("0.0001")
                == .failure(
                    SettingError("must be a number of seconds from 0.001 to 86400")))
        #expect(Settings.checkTimeout.parseArgument("1.5") == .success(.milliseconds(1500)))
    }

    @Test func theHelpLineShowsTheRangeAndTheDefault() {
        #expect(Settings.length.helpLine == "How many characters the code has. (1–12; default: 6)")
        #expect(Settings.mask.helpLine == Settings.mask.summary)
    }
}

@Suite struct ConfigFileSettingsTests {
    @Test func readsEverySettingTheUserGuideShows() {
        let text = """
            lang = "pt-BR"       # "en", "de", "es", "fr", "pt" (Portugal), "pt-BR" (also "pt_BR")
            rate = 320           # 80–450, a number without quotes
            voice = "pt-br"      # an espeak-ng voice name
            volume = 120         # 0–200
            pitch = 40           # 0–99
            verbosity = "terse"  # "terse", "normal", "verbose"
            speech = "text"      # "espeak", "text", "none"
            style = "line"       # "line", "boxes"
            """
        let file = ConfigFileSettings.parse(text, source: source)
        #expect(file.problems == [])
        #expect(file.values[Settings.language] == .ptBR)
        #expect(file.values[Settings.rate] == 320)
        #expect(file.values[Settings.voice] == "pt-br")
        #expect(file.values[Settings.volume] == 120)
        #expect(file.values[Settings.pitch] == 40)
        #expect(file.values[Settings.verbosity] == .terse)
        #expect(file.values[Settings.speech] == .text)
        #expect(file.values[Settings.style] == .line)
        #expect(file.location(of: Settings.voice) == "\(source):3")
    }

    /// "\"en\", \"de\" … or \"pt-BR\"": every registered language, as the catalogs register them.
    static var languageChoices: String {
        let tags = Language.allCases.map { "\"\($0.tag)\"" }
        return tags.dropLast().joined(separator: ", ") + " or " + tags[tags.count - 1]
    }

    @Test func badValuesAreEachReportedWithTheirLineAndTheRestApplies() {
        let text = "lang = \"xx\"\nvoice = \"en-us\"\nrate = 1000\nverbosity = \"chatty\"\npitch = 50\n"
        let file = ConfigFileSettings.parse(text, source: source)
        #expect(file.values.names == ["voice", "pitch"])
        #expect(
            file.problems.map(\.description) == [
                "otc-prompt: \(source):1: lang must be \(Self.languageChoices), not \"xx\"; ignored",
                "otc-prompt: \(source):3: rate must be a number from 80 to 450, not 1000; ignored",
                "otc-prompt: \(source):4: verbosity must be \"terse\", \"normal\" or \"verbose\", not \"chatty\"; ignored",
            ])
    }

    @Test(arguments: [
        ("rate = \"320\"", "rate must be a number without quotes, e.g. rate = 320; ignored"),
        ("rate = true", "rate must be a number from 80 to 450, not true; ignored"),
        ("voice = 3", "voice must be a voice name such as \"en-us\", not 3; ignored"),
        (
            "speech = \"loud\"",
            "speech must be \"auto\", \"speechd\", \"espeak\", \"text\" or \"none\", not \"loud\"; ignored"
        ),
        ("style = true", "style must be \"line\" or \"boxes\", not true; ignored"),
        ("length = 8", "unknown setting \"length\" (known: \(ConfigFileSettings.knownKeys)); ignored"),
        ("colour = \"red\"", "unknown setting \"colour\" (known: \(ConfigFileSettings.knownKeys)); ignored"),
    ])
    func aWrongTypeOrValueIsOneProblem(line: String, message: String) {
        let file = ConfigFileSettings.parse("\n" + line + "\n", source: source)
        #expect(file.values == SettingValues())
        #expect(file.problems == [SettingProblem(source: source, line: 2, message: message)])
    }

    @Test func theCommandLineWinsOverTheFile() {
        var file = SettingValues()
        file[Settings.language] = .ptBR
        file[Settings.rate] = 320
        var commandLine = SettingValues()
        commandLine[Settings.rate] = 200
        commandLine[Settings.verbosity] = .terse
        let merged = file.overridden(by: commandLine)
        #expect(merged[Settings.language] == .ptBR)
        #expect(merged[Settings.rate] == 200)
        #expect(merged[Settings.verbosity] == .terse)
        #expect(merged.value(Settings.pitch) == 50)
        #expect(merged[Settings.voice] == nil)
    }
}

@Suite struct ConfigLocationTests {
    @Test func explicitFileWinsThenXdgThenHome() {
        let environment = ["OTC_PROMPT_CONFIG": "/etc/otc.toml", "XDG_CONFIG_HOME": "/x", "HOME": "/home/joe"]
        #expect(ConfigFileSettings.configPath(environment: environment) == "/etc/otc.toml")
        #expect(
            ConfigFileSettings.configPath(environment: ["XDG_CONFIG_HOME": "/x/cfg/", "HOME": "/home/joe"])
                == "/x/cfg/otc-prompt/config")
        #expect(
            ConfigFileSettings.configPath(environment: ["HOME": "/home/joe"]) == "/home/joe/.config/otc-prompt/config")
        #expect(ConfigFileSettings.configPath(environment: ["XDG_CONFIG_HOME": ""]) == nil)
    }

    @Test func missingNamedFileAndRefusedFileAreReported() {
        let missing = ConfigFileSettings.load(environment: ["OTC_PROMPT_CONFIG": "/tmp/nope"]) { _ in nil }
        #expect(
            missing.problems.map(\.description) == ["otc-prompt: /tmp/nope: no such file (OTC_PROMPT_CONFIG); ignored"])
        let refused = ConfigFileSettings.load(environment: ["HOME": "/home/joe"]) { _ in
            throw ConfigFileRefusal("not believed: it belongs to user 1001 (bob), not to you or root")
        }
        #expect(
            refused.problems.map(\.description) == [
                "otc-prompt: ~/.config/otc-prompt/config: not believed: it belongs to user 1001 (bob), not to you or "
                    + "root; ignored"
            ])
        #expect(refused.values == SettingValues())
    }

    /// A file that exists but cannot be read (EACCES, EMFILE, EIO) might have said mask = true and speech = "none":
    /// the run is as private as that, and says so.
    @Test func aFileThatCannotBeReadFailsClosed() {
        struct Unreadable: Error, CustomStringConvertible {
            var description: String { "cannot open: Too many open files" }
        }
        let unreadable = ConfigFileSettings.load(environment: ["HOME": "/home/joe"]) { _ in throw Unreadable() }
        #expect(
            unreadable.problems.map(\.description) == [
                "otc-prompt: ~/.config/otc-prompt/config: cannot open: Too many open files; the field is masked and "
                    + "nothing is spoken"
            ])
        #expect(unreadable.values[Settings.mask] == true)
        #expect(unreadable.values[Settings.speech] == SpeechChoice.none)
        let none = ConfigFileSettings.load(environment: ["HOME": "/home/joe"]) { _ in nil }
        #expect(none.problems.isEmpty && none.values == SettingValues())
    }
}
