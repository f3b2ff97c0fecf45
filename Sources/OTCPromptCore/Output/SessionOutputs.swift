/// The outputs of one prompt, told the session's effects and state in one order: announcements to each in turn
/// (the speech log before the voice, so a crash loses no line that was said), the field drawn, then the view shown
/// to the outputs that show state. The switch to text lines is made here, once, for all of them: when the voice
/// fails (`SpeechFallback`), every output hears `speechBecameText` before the first line is written.
public struct SessionOutputs {
    /// Each is told only what it claims (`Announcing`, `FieldDrawing`, …), in this order.
    public private(set) var all: [any SessionOutput]
    /// The one switch from the voice to text lines; nil when there is no voice to fail.
    let speechFallback: SpeechFallback?
    /// The effects followed to the view the state outputs are shown.
    private var presentation: SessionViewTracker

    /// - Parameters:
    ///   - linesAbove: the caller's lines drawn above the field (a retry's news, what the question is about), which
    ///     are the opening's news for the outputs that show state.
    public init(_ outputs: [any SessionOutput], speechFallback: SpeechFallback? = nil, linesAbove: [String] = []) {
        all = outputs
        self.speechFallback = speechFallback
        presentation = SessionViewTracker(linesAbove: linesAbove)
    }

    /// Adds `output` after the others.
    public mutating func add(_ output: any SessionOutput) {
        all.append(output)
    }

    /// The caller's lines above the field, for the opening's news.
    public var linesAbove: [String] {
        get { presentation.linesAbove }
        set { presentation.linesAbove = newValue }
    }

    /// Carries out the effects that reach the outputs (an announcement, a redraw, a line above the field); the
    /// others are the loop's. `snapshot` is the field after the effect.
    public mutating func carryOut(_ effect: PromptEffect, snapshot: @autoclosure () -> FieldSnapshot) {
        presentation.note(effect)
        switch effect {
        case .announce(let announcement): say(announcement)
        case .redraw: draw(snapshot(), whole: true)
        case .show(let line):
            show(lines: [line], alsoSaid: true)
            draw(snapshot(), whole: true)
        case .submit, .cancel, .check, .fail, .timeout, .confirmed, .checkError: break
        }
    }

    public func say(_ announcement: Announcement) {
        for case let output as any Announcing in all { output.say(announcement) }
        followSpeechFailure()
    }

    /// Draws the field, then shows the state outputs its view when it changed.
    public mutating func draw(_ snapshot: FieldSnapshot, whole: Bool = false) {
        for case let output as any FieldDrawing in all { output.draw(snapshot, whole: whole) }
        guard let view = presentation.change(of: snapshot) else { return }
        for case let output as any StatePresenting in all { output.present(view) }
    }

    /// Lines above the field (`SessionOutput.show`); the caller draws the field after them.
    public func show(lines: [String], alsoSaid: Bool) {
        for case let output as any FieldDrawing in all { output.show(lines: lines, alsoSaid: alsoSaid) }
    }

    /// When the voice has failed: every output turns to text (the screen takes the field off), then the notice and
    /// what the voice did not say follow as lines. Nothing waits for this: a failure is seen when an announcement is
    /// made, news is taken, or the voice's start-up is taken.
    public func followSpeechFailure() {
        guard let speechFallback, speechFallback.awaitsTextScreen else { return }
        for case let output as any FieldDrawing in all { output.speechBecameText() }
        speechFallback.screenIsText()
    }

    /// The prompt's line ends (over, or stopping).
    public func end() {
        for output in all { output.end() }
    }

    /// Gives every device back; the next view is shown whether or not it changed.
    public mutating func release() {
        for case let output as any StatePresenting in all { output.release() }
        presentation.forgetPresented()
    }

    /// Ends what each output holds, once the loop has returned.
    public func close() {
        for output in all { output.close() }
    }

    /// The descriptors that wake the loop for an output.
    public var descriptors: [Int32] { all.compactMap { ($0 as? any WakesTheLoop)?.descriptor } }

    /// The keys typed on the outputs' own keyboards, in order.
    public func takeKeys() -> [Key] {
        all.flatMap { ($0 as? any KeyboardOfItsOwn)?.takeKeys() ?? [] }
    }

    /// The outputs' news acted on (a voice that failed meanwhile turns them all to text).
    public func takeNews() {
        for case let output as any NewsOfItsOwn in all { output.takeNews() }
        followSpeechFailure()
    }

    /// Whether one of them is still saying something.
    public var isSpeaking: Bool { all.contains { ($0 as? any Announcing)?.isSpeaking == true } }
}
