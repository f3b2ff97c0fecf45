import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
import OTCPromptSettings
import OTCPromptSpeech
import OTCPromptTerminal

/// espeak-ng's data and voice loaded from the first moment of the process (the footprint and start-up targets, the start-up
/// target): the ~20 ms they take then pass while the config is read and the prompt drawn, instead
/// of after. Only for a run that will show a prompt spoken by espeak-ng, as far as the command line
/// and the environment tell before the config file is read; a wrong guess costs CPU on another core.
enum EngineWarmUp {
    /// Starts the warm-up when the run the parsed `commandLine` describes would speak with espeak-ng.
    static func start(
        commandLine: SettingValues, prompt: String?, programPath: String, environment: [String: String]
    ) {
        guard
            let voice = voiceName(
                commandLine: commandLine, prompt: prompt, programPath: programPath, environment: environment)
        else { return }
        EspeakSpeechBackend.prepare(voiceName: voice)
    }

    /// The voice a prompt would load, or nil when this run will not speak with espeak-ng: no prompt (--stdin,
    /// --doctor, a pinentry), or a way of speaking `auto`'s immediate rules already tell is not espeak-ng (an SSH
    /// session with no audio forwarded: text). The command line's values are the parser's, already checked.
    static func voiceName(
        commandLine: SettingValues, prompt: String?, programPath: String, environment: [String: String]
    ) -> String? {
        // Asked at the terminal itself (`FrontEndRun.opensTerminal`): the engine warms up only then. With the
        // prompt: an askpass is one only with its prompt, and without it would be taken for the plain prompt.
        let frontEnd = FrontEnds.choose(
            commandLine: commandLine, prompt: prompt, programPath: programPath, environment: environment)
        guard frontEnd.opensTerminal else { return nil }
        // An askpass with no terminal posts its question for the password agent: it speaks nothing, so it loads no
        // audio library (which would also look at, and complain on stderr about, the caller's audio servers).
        if frontEnd.postsWithoutTerminal && !Terminal.isAvailable { return nil }
        let speech = commandLine[Settings.speech] ?? .auto
        // nil: `auto` must probe, and espeak-ng is the likely answer.
        let intoAudioFile = commandLine[Settings.audioFile] != nil
        let route = SpeechRouteProbes.decidedAtOnce(
            for: speech, intoAudioFile: intoAudioFile, environment: environment, terminal: .controlling)
        if let route, route.kind != .espeak { return nil }
        // The password agent loads espeak-ng only once chosen (`PromptPolicy.speculatesOnEspeak`).
        if route == nil && !frontEnd.warmsUpBeforeTheRoute { return nil }
        let language = commandLine[Settings.language] ?? Language.fromEnvironment(environment)
        return commandLine[Settings.voice] ?? SpeechOptions(language: language).voiceName
    }
}
