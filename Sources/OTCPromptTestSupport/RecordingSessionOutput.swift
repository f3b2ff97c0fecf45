import OTCPromptCore

/// An output that records everything the loop tells it, and hands in keys as a braille display's keyboard would: the
/// test queues them, one batch for each time the loop asks.
public final class RecordingSessionOutput: Announcing, FieldDrawing, StatePresenting, KeyboardOfItsOwn {
    /// Everything the output was told, in order: "draw", "present", "say", "show", "text" (the announcements became
    /// text lines), "end" or "release".
    public private(set) var calls: [String] = []
    public private(set) var presented: [SessionView] = []
    public private(set) var said: [Announcement] = []
    public private(set) var shown: [(lines: [String], alsoSaid: Bool)] = []
    private var batches: [[Key]]
    /// Told of each call as it happens, to put it in order with another double's.
    public var onCall: ((String) -> Void)?

    /// - Parameter keys: what each `takeKeys` returns in turn; nothing once they are used up.
    public init(keys: [[Key]] = []) {
        batches = keys
    }

    private func note(_ call: String) {
        calls.append(call)
        onCall?(call)
    }

    public func draw(_ snapshot: FieldSnapshot, whole: Bool) { note("draw") }

    public func present(_ view: SessionView) {
        presented.append(view)
        note("present")
    }

    public func say(_ announcement: Announcement) {
        said.append(announcement)
        note("say")
    }

    public func show(lines: [String], alsoSaid: Bool) {
        shown.append((lines, alsoSaid))
        note("show")
    }

    public func speechBecameText() { note("text") }
    public func end() { note("end") }
    public func release() { note("release") }
    public func close() {}
    /// Nothing is ever still to be heard.
    public var isSpeaking: Bool { false }

    /// Readable while keys are queued; any number will do, the scripted terminal never polls it.
    public var descriptor: Int32? { batches.isEmpty ? nil : 98 }

    public func takeKeys() -> [Key] {
        batches.isEmpty ? [] : batches.removeFirst()
    }
}
