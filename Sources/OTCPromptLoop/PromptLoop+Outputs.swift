import OTCPromptCore

/// The outputs' keys (a braille display's keyboard), and the loop with the screen and the voice alone.
extension PromptLoop {
    /// A loop whose outputs are the field drawn by `renderer` on the system's terminal and the announcements to
    /// `speech` (through `speechFallback`, the switch to text lines, when its voice can fail).
    public init(
        session: Session, renderer: any FieldRenderer, system: PromptSystem, speech: any SpeechBackend,
        escapeDelay: Duration, capabilities: TerminalCapabilities, check: CheckSettings?,
        typeAhead: TypeAheadRule = .kept, speechStartup: (any SpeechStartup)? = nil,
        speechFallback: SpeechFallback? = nil, asksKeyboardProtocol: Bool = false
    ) {
        self.init(
            session: session,
            outputs: SessionOutputs(
                [VoiceOutput(speech), ScreenOutput(renderer: renderer, terminal: system.terminal)],
                speechFallback: speechFallback),
            system: system, escapeDelay: escapeDelay, capabilities: capabilities, check: check, typeAhead: typeAhead,
            speechStartup: speechStartup, asksKeyboardProtocol: asksKeyboardProtocol)
    }

    /// The keys typed on the outputs' own keyboards, under the same type-ahead rule as the terminal's: within the
    /// grace a question allows, a key is no answer.
    mutating func outputKeys() -> [Key] {
        dropLeftoverLine(outputs.takeKeys(), ignored: now < keysIgnoredUntil)
    }
}
