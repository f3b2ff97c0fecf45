import OTCPromptBraille
import OTCPromptCore
import OTCPromptSettings

/// The braille display, unless `--braille none`, where a server could answer; whose display it may use is judged on
/// its own thread from where the person is (`BrailleRoute`).
extension BrailleOutput: PromptOutput {
    static func make(at place: OutputPlace) -> (any SessionOutput)? {
        start(
            place.settings.value(Settings.braille), location: place.location, environment: place.environment,
            terminal: place.terminal.input)
    }
}
