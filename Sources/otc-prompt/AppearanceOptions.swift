import ArgumentParser
import OTCPromptCore

/// The options that shape what a sighted helper sees.
struct AppearanceOptions: ParsableArguments {
    @Option(help: "line (plain) or boxes (one cell per character). Default: boxes on a colour terminal, else line.")
    var style: FieldStyle?

    @Option(name: .customLong("start-color"), help: "Outline colour of the first box: #RRGGBB or a name.")
    var startColor: String?

    @Option(name: .customLong("end-color"), help: "Outline colour of the last box: #RRGGBB or a name.")
    var endColor: String?

    @Option(help: "What an empty box shows: one character, e.g. • (default), _ or a space.")
    var placeholder: String?

    func validate() throws {
        for (name, value) in [("--start-color", startColor), ("--end-color", endColor)] {
            if let value, Color.parse(value) == nil {
                throw ValidationError("\(name) '\(value)' is not a colour: use #RRGGBB or a name such as blue.")
            }
        }
        if let placeholder, BoxesStyle.placeholder(from: placeholder) == nil {
            throw ValidationError(
                "--placeholder must be one printable character, such as _ or a space, not '\(placeholder)'.")
        }
    }

    /// The boxes style the options describe, on top of the defaults.
    var boxesStyle: BoxesStyle {
        var boxes = BoxesStyle()
        if let startColor, let color = Color.parse(startColor) { boxes.startColor = color }
        if let endColor, let color = Color.parse(endColor) { boxes.endColor = color }
        if let placeholder, let character = BoxesStyle.placeholder(from: placeholder) { boxes.placeholder = character }
        return boxes
    }
}

extension FieldStyle: ExpressibleByArgument {}
