import OTCPromptBraille
import OTCPromptCore
import OTCPromptLoop

/// Every output, listed once; the one place that chooses a prompt's outputs. Each says itself when it applies and how
/// it is made (`PromptOutput.make`), from where the person is (`OutputPlace`): adding an output is its type and one
/// line here.
enum PromptOutputs {
    /// Every output the program has, in the order each is told the session's effects: the log first, since a line is
    /// written as it is said and a crash then loses none that was heard; the voice or the text lines; the field on the
    /// screen; then the outputs that show state on a device of their own.
    static var all: [any PromptOutput.Type] {
        [SpeechLogWriter.self, VoiceOutput.self, TextLinesOutput.self, ScreenOutput.self, BrailleOutput.self]
    }

    /// The outputs that take the announcements, for a cue said without a field (`TouchCueSpeaker`).
    static var announcing: [any PromptOutput.Type] { all.filter { $0 is any Announcing.Type } }

    /// The outputs among `outputs` that apply at `place`, in the list's order, with the voice's one switch to text
    /// lines; `linesAbove` are the caller's lines above the field, the opening's news for the outputs that show state.
    static func choose(
        at place: OutputPlace, among outputs: [any PromptOutput.Type] = all, linesAbove: [String] = []
    ) -> SessionOutputs {
        let chosen: [any SessionOutput] = outputs.compactMap { $0.make(at: place) }
        return SessionOutputs(chosen, speechFallback: place.speech.fallback, linesAbove: linesAbove)
    }
}
