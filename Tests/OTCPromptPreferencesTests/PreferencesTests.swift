import OTCPromptCore
import Testing

@testable import OTCPromptPreferences

private let source = "~/.config/otc-prompt/config"

@Suite struct PreferencesParsingTests {
    @Test func readsEverySetting() {
        let text = """
            # my voice
            lang = "pt"
            rate = 320
            voice = "en-us"
            volume = 150
            pitch = 40
            verbosity = "terse"
            speech = "text"
            style = "line"
            """
        let (preferences, problems) = Preferences.parse(text, source: source)
        #expect(problems == [])
        #expect(
            preferences
                == Preferences(
                    language: .pt, rate: 320, volume: 150, pitch: 40, voice: "en-us", verbosity: .terse,
                    speech: "text", style: "line"))
    }

    @Test func emptyFileSetsNothing() {
        let (preferences, problems) = Preferences.parse("", source: source)
        #expect(preferences == Preferences())
        #expect(problems.isEmpty)
    }

    @Test func malformedFileIsIgnoredWithItsLine() {
        let text = "lang = \"pt\"\nrate = 320\nvoice = \"en-us\n"
        let (preferences, problems) = Preferences.parse(text, source: source)
        #expect(preferences == Preferences())
        #expect(problems.count == 1)
        #expect(problems.first?.line == 3)
        #expect(problems.first?.message.hasPrefix("not valid TOML") == true)
        #expect(problems.first?.description.hasPrefix("otc-prompt: ~/.config/otc-prompt/config line 3: ") == true)
    }

    @Test func duplicateKeyIsMalformed() {
        let (preferences, problems) = Preferences.parse("rate = 300\nrate = 310\n", source: source)
        #expect(preferences == Preferences())
        #expect(problems.map(\.line) == [2])
    }

    @Test func badValuesAreEachReportedAndTheRestApplies() {
        let text = """
            lang = "fr"
            voice = "en-us"
            rate = 1000
            verbosity = "chatty"
            pitch = 50
            """
        let (preferences, problems) = Preferences.parse(text, source: source)
        #expect(preferences == Preferences(pitch: 50, voice: "en-us"))
        #expect(
            problems.map(\.description) == [
                "otc-prompt: \(source) line 1: lang must be \"en\" or \"pt\"; ignored",
                "otc-prompt: \(source) line 3: rate must be a number from 80 to 450; ignored",
                "otc-prompt: \(source) line 4: verbosity must be \"terse\", \"normal\" or \"verbose\"; ignored",
            ])
    }

    @Test(arguments: [
        ("rate = \"fast\"", "rate must be a number from 80 to 450; ignored"),
        ("rate = 79", "rate must be a number from 80 to 450; ignored"),
        ("rate = 320.5", "rate must be a number from 80 to 450; ignored"),
        ("rate = \"320\"", "rate must be a number without quotes, e.g. rate = 320; ignored"),
        ("volume = 201", "volume must be a number from 0 to 200; ignored"),
        ("pitch = -1", "pitch must be a number from 0 to 99; ignored"),
        ("voice = 3", "voice must be a voice name in quotes, e.g. voice = \"en-us\"; ignored"),
        ("voice = \"\"", "voice must be a voice name in quotes, e.g. voice = \"en-us\"; ignored"),
        ("speech = \"loud\"", "speech must be \"espeak\", \"text\" or \"none\"; ignored"),
        ("style = true", "style must be \"line\" or \"boxes\"; ignored"),
        ("lang = [\"pt\"]", "lang must be \"en\" or \"pt\"; ignored"),
    ])
    func wrongTypeOrValueNamesTheKey(line: String, message: String) {
        let (preferences, problems) = Preferences.parse("\n" + line + "\n", source: source)
        #expect(preferences == Preferences())
        #expect(problems == [PreferenceProblem(source: source, line: 2, message: message)])
    }

    @Test func unknownKeysAreReportedWithTheirLines() {
        let text = "lang = \"en\"\n  colour = \"red\"\n\n[speed]\nfast = true\n"
        let (preferences, problems) = Preferences.parse(text, source: source)
        #expect(preferences == Preferences(language: .en))
        #expect(problems.map(\.line) == [2, 4])
        #expect(problems.first?.message.hasPrefix("unknown setting \"colour\" (known: lang, rate,") == true)
        #expect(problems.last?.message.hasPrefix("unknown setting \"speed\"") == true)
    }

    @Test func keyInsideATableIsNotMistakenForATopLevelKey() {
        let text = "[voice]\nrate = 300\n"
        let (preferences, problems) = Preferences.parse(text, source: source)
        #expect(preferences == Preferences())
        #expect(problems.map(\.line) == [1])
        #expect(problems.first?.message.hasPrefix("voice must be") == true)
    }

    @Test(arguments: [("pt", Language.pt), ("PT", .pt), ("pt-BR", .pt), ("pt_BR", .pt), ("en_US", .en)])
    func languageAcceptsLocaleSpellings(value: String, language: Language) {
        let (preferences, problems) = Preferences.parse("lang = \"\(value)\"", source: source)
        #expect(problems.isEmpty)
        #expect(preferences.language == language)
    }

    @Test func controlCharactersFromTheFileNeverReachTheTerminal() {
        let (_, problems) = Preferences.parse("\"bad\\u001b[31mkey\" = 1", source: source)
        #expect(problems.count == 1)
        #expect(problems.first?.description.unicodeScalars.contains { $0.value == 0x1B } == false)
    }

    @Test func commandLineOverridesTheFile() {
        let file = Preferences(language: .pt, rate: 320, voice: "pt")
        let options = Preferences(rate: 200, verbosity: .terse)
        #expect(
            file.overridden(by: options) == Preferences(language: .pt, rate: 200, voice: "pt", verbosity: .terse))
    }
}

@Suite struct PreferencesLocationTests {
    @Test func explicitFileWins() {
        let environment = ["OTC_PROMPT_CONFIG": "/etc/otc.toml", "XDG_CONFIG_HOME": "/x", "HOME": "/home/joe"]
        #expect(Preferences.configPath(environment: environment) == "/etc/otc.toml")
    }

    @Test func xdgConfigHomeThenHome() {
        #expect(
            Preferences.configPath(environment: ["XDG_CONFIG_HOME": "/x/cfg/", "HOME": "/home/joe"])
                == "/x/cfg/otc-prompt/config")
        #expect(Preferences.configPath(environment: ["HOME": "/home/joe"]) == "/home/joe/.config/otc-prompt/config")
    }

    @Test func emptyOrRelativeValuesAreIgnored() {
        let environment = ["OTC_PROMPT_CONFIG": "", "XDG_CONFIG_HOME": "cfg", "HOME": "/home/joe"]
        #expect(Preferences.configPath(environment: environment) == "/home/joe/.config/otc-prompt/config")
        #expect(Preferences.configPath(environment: ["XDG_CONFIG_HOME": ""]) == nil)
        #expect(Preferences.configPath(environment: [:]) == nil)
    }

    @Test func displayPathAbbreviatesHome() {
        let environment = ["HOME": "/home/joe"]
        #expect(
            Preferences.displayPath("/home/joe/.config/otc-prompt/config", environment: environment)
                == "~/.config/otc-prompt/config")
        #expect(Preferences.displayPath("/home/joey/config", environment: environment) == "/home/joey/config")
        #expect(Preferences.displayPath("/etc/x", environment: [:]) == "/etc/x")
    }
}

@Suite struct PreferencesLoadingTests {
    struct Unreadable: Error, CustomStringConvertible {
        var description: String { "cannot open: Permission denied" }
    }

    @Test func missingDefaultFileIsNotAProblem() {
        var asked: [String] = []
        let (preferences, problems) = Preferences.load(environment: ["HOME": "/home/joe"]) { path in
            asked.append(path)
            return nil
        }
        #expect(asked == ["/home/joe/.config/otc-prompt/config"])
        #expect(preferences == Preferences())
        #expect(problems.isEmpty)
    }

    @Test func missingNamedFileIsReported() {
        let (_, problems) = Preferences.load(environment: ["OTC_PROMPT_CONFIG": "/tmp/nope"]) { _ in nil }
        #expect(problems.map(\.description) == ["otc-prompt: /tmp/nope: no such file (OTC_PROMPT_CONFIG); ignored"])
    }

    @Test func unreadableFileIsReportedAndIgnored() {
        let (preferences, problems) = Preferences.load(environment: ["HOME": "/home/joe"]) { _ in throw Unreadable() }
        #expect(preferences == Preferences())
        #expect(
            problems.map(\.description) == [
                "otc-prompt: ~/.config/otc-prompt/config: cannot open: Permission denied; ignored"
            ])
    }

    @Test func readFileIsParsedWithItsDisplayName() {
        let (preferences, problems) = Preferences.load(environment: [
            "XDG_CONFIG_HOME": "/home/joe/cfg", "HOME": "/home/joe",
        ]) { _ in
            "lang = \"pt\"\nrate = \"fast\"\n"
        }
        #expect(preferences == Preferences(language: .pt))
        #expect(
            problems.map(\.description) == [
                "otc-prompt: ~/cfg/otc-prompt/config line 2: rate must be a number from 80 to 450; ignored"
            ])
    }
}
