import OTCPromptCore
import OTCPromptLoop

/// The field on the terminal, always: where the announcements are text lines from the start, its renderer draws
/// nothing and the lines are the screen.
extension ScreenOutput: PromptOutput {
    static func make(at place: OutputPlace) -> (any SessionOutput)? {
        let renderer = makeRenderer(
            style: place.style, speechIsText: place.speech.isText, capabilities: place.capabilities,
            boxes: place.appearance.boxes)
        return ScreenOutput(renderer: renderer, terminal: place.terminal)
    }
}
