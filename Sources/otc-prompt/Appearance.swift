import OTCPromptCore
import OTCPromptSettings

/// How the field is drawn.
struct Appearance {
    /// nil lets the terminal decide.
    var style: FieldStyle?
    var boxes: BoxesStyle

    init(_ settings: SettingValues) {
        style = settings[Settings.style]
        boxes = BoxesStyle(
            startColor: settings.value(Settings.startColor), endColor: settings.value(Settings.endColor),
            placeholder: settings.value(Settings.placeholder))
    }
}
