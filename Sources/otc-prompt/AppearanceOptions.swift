import ArgumentParser
import OTCPromptCore
import OTCPromptSettings

/// The options that shape what a sighted helper sees.
struct AppearanceOptions: ParsableArguments {
    @Option(Settings.style) var style: FieldStyle?
    @Option(Settings.startColor) var startColor: Color?
    @Option(Settings.endColor) var endColor: Color?
    @Option(Settings.placeholder) var placeholder: Character?

    func add(to values: inout SettingValues) {
        values.set(Settings.style, style)
        values.set(Settings.startColor, startColor)
        values.set(Settings.endColor, endColor)
        values.set(Settings.placeholder, placeholder)
    }
}

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
