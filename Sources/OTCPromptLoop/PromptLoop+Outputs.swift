import OTCPromptCore

/// The outputs beside the screen and the voice (`SessionOutput`): shown the session's view whenever it changes, their
/// keys taken as the terminal's are, and given back when the prompt stops or ends.
extension PromptLoop {
    /// Shows the outputs the session's view, when it changed since they were last shown it.
    mutating func presentToOutputs() {
        guard !outputs.isEmpty, let view = presentation.change(of: session.snapshot) else { return }
        for output in outputs { output.present(view) }
    }

    /// The keys typed on the outputs' own keyboards, under the same type-ahead rule as the terminal's: within the
    /// grace a question allows, a key is no answer.
    mutating func outputKeys() -> [Key] {
        guard !outputs.isEmpty else { return [] }
        return dropLeftoverLine(outputs.flatMap { $0.takeKeys() }, ignored: now < keysIgnoredUntil)
    }

    /// Gives the outputs' devices back (the prompt stops, or is over); the next view takes them again.
    mutating func releaseOutputs() {
        for output in outputs { output.release() }
        presentation.forgetPresented()
    }
}
