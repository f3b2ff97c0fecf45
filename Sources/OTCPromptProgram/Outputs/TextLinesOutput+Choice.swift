import OTCPromptCore
import OTCPromptHost
import OTCPromptTerminal

/// The text lines, where speech is text from the start (`--speech text`, SSH with no audio): the line writer is
/// made here, for them and for the voice's switch to text alike.
extension TextLinesOutput: PromptOutput {
    static func make(at place: OutputPlace) -> (any SessionOutput)? {
        place.speech.isText ? TextLinesOutput(place.speech.textLines) : nil
    }

    /// The announcements as lines on `terminal`; at boot with no voice, the PC speaker's `cue` too when a question
    /// opens (`BootCue`).
    static func writer(on terminal: Terminal, cue: BootCue?) -> any SpeechBackend {
        let lines = TextSpeechBackend(writeLine: { terminal.writeLine($0) })
        return cue.map { CueSpeechBackend(wrapping: lines, cue: $0) { PCSpeaker.start($0) } } ?? lines
    }
}
