/// Where the session's effects go: the screen, the voice (or the text lines in its place), the speech log, a braille
/// display. The loop tells every output the same things in the same order through `SessionOutputs`; a new output is a
/// type of its own, chosen where the others are, never a branch in the loop.
///
/// What every output must answer is here: what it does when the prompt's line ends and when it is closed. What it
/// takes of the session is a capability it adopts (`Announcing`, `FieldDrawing`, `StatePresenting`,
/// `KeyboardOfItsOwn`, `NewsOfItsOwn`), with no defaults: the compiler asks an adapter for every member of what it
/// claims, and `SessionOutputs` tells each output only what it claims.
///
/// Two views of the same moment go out, so that each output holds only what it needs: the screen draws the field
/// from its snapshot (which the screen's renderer masks), every other output that shows state is given a
/// `SessionView`, in which a masked field is only its count.
public protocol SessionOutput: AnyObject {
    /// The prompt's line ends: the prompt is over, or it stops (Ctrl-Z).
    func end()
    /// Ends what the output holds (a connection, a thread), once the loop has returned; it is told nothing after.
    func close()
}

/// An output that takes the announcements (the voice, the speech log).
public protocol Announcing: SessionOutput {
    /// An announcement, as the session makes it.
    func say(_ announcement: Announcement)
    /// Whether something given to it is still to be heard (the voice speaking); false where nothing says.
    var isSpeaking: Bool { get }
}

/// An output that draws the field on the terminal (the screen).
public protocol FieldDrawing: SessionOutput {
    /// The field's state; `whole` when it is drawn afresh (the opening, a redraw the session asked for, a resize,
    /// back from a stop) rather than updated from what was drawn.
    func draw(_ snapshot: FieldSnapshot, whole: Bool)
    /// Lines for the user above the field; `alsoSaid` when the same words are announced too, so an output whose
    /// announcements are lines already does not write them twice. The field is drawn again whole after them.
    func show(lines: [String], alsoSaid: Bool)
    /// The announcements have become text lines (the voice failed or never came): it takes the field off the screen
    /// and draws no more, since the lines follow in its place.
    func speechBecameText()
}

/// An output that shows the session's state on a device of its own (a braille display).
public protocol StatePresenting: SessionOutput {
    /// The session's state; only when it changed since this output was last shown it, or was given back. An output
    /// given back with `release` takes its device again.
    func present(_ view: SessionView)
    /// Gives the device back while the prompt is stopped (Ctrl-Z) or over; the next `present` takes it again.
    func release()
}

/// An output with something for the loop, which wakes it.
public protocol WakesTheLoop: SessionOutput {
    /// Readable when the output has something for the loop; nil when it waits for none.
    var descriptor: Int32? { get }
}

/// An output with a keyboard of its own (a braille display's).
public protocol KeyboardOfItsOwn: WakesTheLoop {
    /// The keys typed on its own keyboard since the last call, in order; taken after every wake. Never waits.
    func takeKeys() -> [Key]
}

/// An output with news of its own (the voice's word that an opening was cut and must be sent again).
public protocol NewsOfItsOwn: WakesTheLoop {
    /// Acts on its own news; called only when the loop woke for something other than the terminal's bytes, so that
    /// a key costs no look at it. Never waits.
    func takeNews()
}
