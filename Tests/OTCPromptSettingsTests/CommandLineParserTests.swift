import OTCPromptCore
import Testing

@testable import OTCPromptSettings

private func parsed(_ arguments: [String]) throws -> ParsedCommandLine {
    try CommandLineParser.parse(arguments).get()
}

private func error(_ arguments: [String]) -> CommandLineError? {
    guard case .failure(let error) = CommandLineParser.parse(arguments) else { return nil }
    return error
}

@Suite struct CommandLineParserTests {
    @Test func noArgumentsRunTheDefaultPrompt() throws {
        #expect(try parsed([]) == ParsedCommandLine())
    }

    @Test(arguments: [["--length", "8"], ["--length=8"], ["-n", "8"], ["-n=8"], ["-n8"]])
    func anOptionTakesItsValueInEverySpelling(arguments: [String]) throws {
        #expect(try parsed(arguments).values[Settings.length] == 8)
    }

    @Test func everyDeclaredSettingIsAnOption() throws {
        for setting in Settings.all {
            let arguments = setting.isFlag ? ["--" + setting.name] : ["--" + setting.name, sampleValue(setting)]
            let result = try parsed(arguments)
            #expect(result.values.names == [setting.name], "\(arguments)")
        }
    }

    @Test func valuesAreTypedAsDeclared() throws {
        let result = try parsed([
            "--charset", "alnum", "--mask", "--speech=text", "--timeout", "1.5", "--lang", "pt_BR", "--start-color",
            "blue", "--placeholder", "_", "--check", "test \"$(cat)\" = 123456",
        ])
        #expect(result.values[Settings.charset] == .alnum)
        #expect(result.values[Settings.mask] == true)
        #expect(result.values[Settings.speech] == .text)
        #expect(result.values[Settings.timeout] == .milliseconds(1500))
        #expect(result.values[Settings.language] == .ptBR)
        #expect(result.values[Settings.startColor] == Color.parse("blue"))
        #expect(result.values[Settings.placeholder] == "_")
        #expect(result.values[Settings.check] == "test \"$(cat)\" = 123456")
    }

    @Test func theLastValueOfARepeatedOptionWins() throws {
        #expect(try parsed(["--rate", "200", "--rate", "300", "--mask", "--mask"]).values[Settings.rate] == 300)
    }

    @Test func oneArgumentIsThePromptWhereverItStands() throws {
        #expect(try parsed(["Enter the code", "-n", "4"]).prompt == "Enter the code")
        #expect(try parsed(["-n", "4", "Enter the code"]).prompt == "Enter the code")
        #expect(try parsed(["-"]).prompt == "-")
    }

    @Test(arguments: ["--help", "-h", "--check=id", "--", "-n"])
    func afterTheSeparatorEverythingIsThePrompt(prompt: String) throws {
        let result = try parsed(["--askpass", "--", prompt])
        #expect(result.action == .run)
        #expect(result.prompt == prompt)
        #expect(result.values.names == ["askpass"])
    }

    @Test func helpAndVersionAreAnsweredWhateverElseIsWrong() throws {
        #expect(try parsed(["--help"]).action == .help)
        #expect(try parsed(["-h"]).action == .help)
        #expect(try parsed(["--bogus", "--length", "99", "-h"]).action == .help)
        #expect(try parsed(["--version"]).action == .version)
        #expect(try parsed(["--version", "--help"]).action == .help)
        #expect(try parsed(["--help", "--version"]).action == .help)
        #expect(try parsed(["a", "b", "--version"]).action == .version)
    }

    @Test func anInvalidValueNamesTheOptionAndWhatItMustBe() {
        let rate = error(["--rate", "1000"])
        #expect(rate?.description == "the value '1000' is invalid for '--rate': it must be a number from 80 to 450")
        let speech = error(["--speech=loud"])
        #expect(
            speech?.description
                == "the value 'loud' is invalid for '--speech': it must be \"auto\", \"speechd\", \"espeak\", "
                + "\"text\" or \"none\"")
        #expect(error(["-n", "13"])?.description.contains("for '--length': it must be a number from 1 to 12") == true)
    }

    @Test func aMissingValueIsNamed() throws {
        #expect(error(["--rate"]) == .missingValue(option: "--rate", valueName: "WPM"))
        #expect(error(["--rate="]) == .missingValue(option: "--rate", valueName: "WPM"))
        #expect(error(["--check", "--mask"]) == .missingValue(option: "--check", valueName: "COMMAND"))
        #expect(error(["--timeout", "-1"]) == .missingValue(option: "--timeout", valueName: "SECONDS"))
        #expect(try parsed(["--check=-x"]).values[Settings.check] == "-x")
        #expect(try parsed(["--placeholder", "-"]).values[Settings.placeholder] == "-")
    }

    @Test func anUnknownOptionIsNamedWithTheLikelyOne() {
        #expect(error(["--bogus"]) == .unknownOption("--bogus", suggestion: nil))
        #expect(error(["--speec", "none"]) == .unknownOption("--speec", suggestion: "--speech"))
        #expect(error(["--Length", "4"]) == .unknownOption("--Length", suggestion: "--length"))
        #expect(error(["--lenght=4"]) == .unknownOption("--lenght=4", suggestion: "--length"))
        #expect(error(["-x"]) == .unknownOption("-x", suggestion: nil))
        #expect(error(["---x"]) == .unknownOption("---x", suggestion: nil))
    }

    @Test func aLabelGivenAsAnOptionIsToldThatTheLabelIsThePrompt() {
        for option in ["--label", "--prompt=Bank code", "--Title", "--text", "--message", "--description"] {
            #expect(error([option, "Bank code"]) == .labelAsOption(option))
        }
        #expect(
            CommandLineError.labelAsOption("--label").description
                == "'--label' is not an option: the label is PROMPT, given alone, as in otc-prompt 'Bank code'")
    }

    @Test func aFlagTakesNoValue() {
        #expect(error(["--mask=true"]) == .flagWithValue(option: "--mask"))
        #expect(error(["--mask=true"])?.description == "'--mask' takes no value: write --mask alone")
    }

    @Test func aSecondPromptIsAnError() {
        #expect(error(["a", "b"]) == .unexpectedArgument("b"))
        #expect(error(["--", "a", "b"]) == .unexpectedArgument("b"))
    }

    @Test(arguments: ["--bad\u{1b}]0;owned\u{07}", "--placeholder=\u{1b}[2J", "--voice=\u{9b}31m", "a\nb"])
    func aMessageNeverHoldsAControlCharacter(argument: String) throws {
        let message = try #require(error(["x", argument])?.message ?? error([argument])?.message)
        for line in message.split(separator: "\n") {
            #expect(!line.unicodeScalars.contains { UntrustedText.isEscaped($0) })
        }
        #expect(message.split(separator: "\n").count == 2)
        #expect(message.hasPrefix("otc-prompt: "))
        #expect(message.hasSuffix("otc-prompt --help lists the options."))
    }

    /// A valid value for each setting, from its declaration.
    private func sampleValue(_ setting: any AnySetting) -> String {
        if let choice = setting.choices?.first { return choice }
        let candidates = ["6", "1", "100", "en-us", "true", "blue", "_", "/tmp/x.wav", "echo"]
        return candidates.first { setting.isValidArgument($0) } ?? "?"
    }
}
