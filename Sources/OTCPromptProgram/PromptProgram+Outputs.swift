import OTCPromptBraille
import OTCPromptCore
import OTCPromptHost
import OTCPromptLoop
import OTCPromptTerminal

/// The outputs beside the screen and the voice, chosen here for each session: the braille display (`--braille`),
/// when one answers that is the user's to use (`BrailleRoute`, decided on the output's own thread).
extension PromptProgram {
    /// Gives `loop` its outputs and what they show at the opening (the caller's lines above the field); returns
    /// what ends them once the loop has returned.
    func attachOutputs<Session: InteractiveSession>(to loop: inout PromptLoop<Session>, terminal: Terminal) -> () ->
        Void
    {
        guard let braille = BrailleOutput.start(appearance.braille, environment: environment, terminal: terminal.input)
        else { return {} }
        loop.outputs = [braille]
        loop.presentation = SessionViewTracker(linesAbove: request.details)
        return { braille.close() }
    }
}
