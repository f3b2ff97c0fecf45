/// Where the session's effects go: the screen, the voice (or the text lines in its place), the speech log, a braille
/// display. The loop tells every output the same things in the same order through `SessionOutputs`, and each adapter
/// takes what it presents and leaves the rest (the defaults do nothing): a new output is a type of its own, chosen
/// where the others are, never a branch in the loop.
///
/// Two views of the same moment go out, so that each output holds only what it needs: the screen draws the field
/// from its snapshot (which the screen's renderer masks), every other output that shows state is given a
/// `SessionView`, in which a masked field is only its count.
public protocol SessionOutput: AnyObject {
    /// The field's state for an output that draws it on the terminal; `whole` when it is drawn afresh (the opening,
    /// a redraw the session asked for, a resize, back from a stop) rather than updated from what was drawn.
    func draw(_ snapshot: FieldSnapshot, whole: Bool)
    /// The session's state for an output that shows state (a braille display); only when it changed since this
    /// output was last shown it, or was given back. An output given back with `release` takes its device again.
    func present(_ view: SessionView)
    /// An announcement, as the session makes it.
    func say(_ announcement: Announcement)
    /// Lines for the user above the field; `alsoSaid` when the same words are announced too, so an output whose
    /// announcements are lines already does not write them twice. The field is drawn again whole after them.
    func show(lines: [String], alsoSaid: Bool)
    /// The announcements have become text lines (the voice failed or never came): an output that drew the field
    /// takes it off the screen and draws no more, since the lines follow in its place.
    func speechBecameText()
    /// The prompt's line ends: the prompt is over, or it stops (Ctrl-Z).
    func end()
    /// Gives the device back while the prompt is stopped (Ctrl-Z) or over; the next `present` takes it again.
    func release()
    /// Ends what the output holds (a connection, a thread), once the loop has returned; it is told nothing after.
    func close()
    /// Readable when the output has something for the loop: keys from a keyboard of its own, or news of its own (the
    /// voice's word that an opening was cut and must be sent again); nil when it waits for none.
    var descriptor: Int32? { get }
    /// The keys typed on its own keyboard since the last call, in order; taken after every wake. Never waits.
    func takeKeys() -> [Key]
    /// Acts on its own news; called only when the loop woke for something other than the terminal's bytes, so that
    /// a key costs no look at it. Never waits.
    func takeNews()
    /// Whether something given to it is still to be heard or read (the voice speaking); false where nothing says.
    var isSpeaking: Bool { get }
}

extension SessionOutput {
    public func draw(_ snapshot: FieldSnapshot, whole: Bool) {}
    public func present(_ view: SessionView) {}
    public func say(_ announcement: Announcement) {}
    public func show(lines: [String], alsoSaid: Bool) {}
    public func speechBecameText() {}
    public func end() {}
    public func release() {}
    public func close() {}
    public var descriptor: Int32? { nil }
    public func takeKeys() -> [Key] { [] }
    public func takeNews() {}
    public var isSpeaking: Bool { false }
}
