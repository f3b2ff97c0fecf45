import OTCPromptBraille
import OTCPromptCore
import OTCPromptHost
import OTCPromptLoop
import OTCPromptSettings
import OTCPromptTerminal

/// The one place a prompt's outputs are chosen, from the same evidence as the voice's route (the login session of
/// the terminal the person types on): the speech log, the voice or the text lines in its place, the field on the
/// screen, and the braille display. A new output is an adapter (`SessionOutput`) and its line here, reading its
/// setting from `appearance.settings`.
enum PromptOutputs {
    static func choose(
        style: FieldStyle?, speech: SpeechSetup, capabilities: TerminalCapabilities, appearance: Appearance,
        linesAbove: [String], location: SessionLocation, environment: [String: String], terminal: Terminal
    ) -> SessionOutputs {
        // The log first: a line is written as it is said, so a crash loses none that was heard.
        var chosen: [any SessionOutput] = speech.log.map { [$0] } ?? []
        chosen.append(VoiceOutput(speech.voice))
        let renderer = makeRenderer(
            style: style, speechIsText: speech.isText, capabilities: capabilities, boxes: appearance.boxes)
        chosen.append(ScreenOutput(renderer: renderer, terminal: terminal))
        if let braille = BrailleOutput.start(
            appearance.settings.value(Settings.braille), location: location, environment: environment,
            terminal: terminal.input)
        {
            chosen.append(braille)
        }
        return SessionOutputs(chosen, speechFallback: speech.fallback, linesAbove: linesAbove)
    }
}
