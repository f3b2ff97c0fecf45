import OTCPromptCore
import OTCPromptSettings

/// How the field is shown on the screen, and the settings every other output reads its own from where the outputs
/// are chosen (`PromptOutputs`), so that a new output's setting needs no field here.
struct Appearance {
    /// nil lets the terminal decide.
    var style: FieldStyle?
    var boxes: BoxesStyle
    let settings: SettingValues

    init(_ settings: SettingValues) {
        style = settings[Settings.style]
        boxes = BoxesStyle(
            startColor: settings.value(Settings.startColor), endColor: settings.value(Settings.endColor),
            placeholder: settings.value(Settings.placeholder))
        self.settings = settings
    }
}
