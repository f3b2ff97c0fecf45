/// Whether the prompt shows itself on a braille display (`--braille`): the setting's values, here since the settings
/// declare it; what each means is braille's own logic (OTCPromptBraille's `Logic/`).
public enum BrailleChoice: String, CaseIterable, Sendable {
    /// The user's own brltty, or the system's when they are at this machine: see `BrailleRoute.choose`.
    case auto
    /// As `auto`, and a server over TCP on another machine, whose owner nothing can tell, is used too.
    case brlapi
    case none
}
