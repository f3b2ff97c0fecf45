import OTCPromptCore
import OTCPromptSpeech

/// espeak-ng's data and voice loaded from the first moment of the process (issue 16, the start-up
/// target): the ~20 ms they take then pass while the options are parsed and the prompt drawn, instead
/// of after. Only for a run that will show a prompt spoken by espeak-ng, as far as the command line
/// and the environment tell before they are parsed; a wrong guess costs CPU on another core.
enum EngineWarmUp {
    /// Starts the warm-up when `arguments` (argv without the program) would speak with espeak-ng.
    static func start(programPath: String, arguments: [String], environment: [String: String]) {
        guard let voice = voiceName(programPath: programPath, arguments: arguments, environment: environment)
        else { return }
        EspeakSpeechBackend.prepare(voiceName: voice)
    }

    /// The voice a prompt would load, or nil when this run will not speak with espeak-ng: no prompt
    /// (--version, --help, --stdin, --doctor, a pinentry), another way of speaking, or `auto` in an SSH
    /// session with no audio forwarded (text).
    static func voiceName(programPath: String, arguments: [String], environment: [String: String]) -> String? {
        if programPath.split(separator: "/").last == "pinentry-otc" { return nil }
        let noPrompt: Set<String> = ["--version", "--help", "-h", "--stdin", "--doctor", "--pinentry"]
        var speech = "auto"
        var language = Language.fromEnvironment(environment)
        var voice: String?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { break }
            if noPrompt.contains(argument) || argument.hasPrefix("--generate-completion") { return nil }
            let (name, inline) = split(argument)
            let value = inline ?? (index + 1 < arguments.count ? arguments[index + 1] : nil)
            switch name {
            case "--speech": speech = value ?? speech
            case "--lang": language = value.flatMap(Language.init(rawValue:)) ?? language
            case "--voice": voice = value
            default: break
            }
            index += 1
        }
        guard speech == "espeak" || speech == "auto" else { return nil }
        let isSSH = environment["SSH_CONNECTION"] != nil || environment["SSH_TTY"] != nil
        let audioForwarded = environment["PULSE_SERVER"] != nil || environment["SPEECHD_ADDRESS"] != nil
        if speech == "auto" && isSSH && !audioForwarded { return nil }
        // A name the option would refuse is not handed to espeak-ng even here.
        let allowed = voice.map {
            !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_+".contains($0)) }
        }
        return allowed == true ? voice : SpeechOptions(language: language).voiceName
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
