import OTCPromptCore
import OTCPromptLoop
import OTCPromptSettings
import OTCPromptTerminal

/// An output as the program knows it: one type, listed once in `PromptOutputs.all`, that says when it applies and how
/// it is made. What it takes of the session is the capabilities it adopts (`Announcing`, `FieldDrawing`, …).
protocol PromptOutput: SessionOutput {
    /// The output made for one prompt at `place`; nil where it does not apply (not asked for, nothing there).
    static func make(at place: OutputPlace) -> (any SessionOutput)?
}

/// What every output is chosen from: the terminal the person types on and its login session (the same evidence as
/// the voice's route), the caller's environment, the settings, and the way speech was found to go.
struct OutputPlace {
    let terminal: Terminal
    /// Where the person typing on `terminal` is.
    let location: SessionLocation
    let environment: [String: String]
    /// The field's look, and the settings each output reads its own from, so that a new output's needs no field here.
    let appearance: Appearance
    /// The field's style for this request (boxes are for codes); nil lets the terminal decide.
    let style: FieldStyle?
    let capabilities: TerminalCapabilities
    /// The voice, the text lines or nothing, and the speech log, as `SpeechSetup` found them.
    let speech: SpeechSetup

    var settings: SettingValues { appearance.settings }
}
