import OTCPromptCore
import OTCPromptSettings

/// How the field is shown: drawn on the screen, and on a braille display.
struct Appearance {
    /// nil lets the terminal decide.
    var style: FieldStyle?
    var boxes: BoxesStyle
    var braille: BrailleChoice

    init(_ settings: SettingValues) {
        style = settings[Settings.style]
        boxes = BoxesStyle(
            startColor: settings.value(Settings.startColor), endColor: settings.value(Settings.endColor),
            placeholder: settings.value(Settings.placeholder))
        braille = settings.value(Settings.braille)
    }
}
