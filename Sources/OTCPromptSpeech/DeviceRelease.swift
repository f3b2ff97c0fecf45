/// A voice's device let go after a silence (`EspeakSpeechBackend.start`): for a voice that mostly waits, so that
/// nothing of it wakes while it is idle; the next announcement opens the device again. Whoever asks for it says how
/// long the silence lasts, and may be told each time the device has gone (the stream closed, the writer thread
/// ended).
public struct DeviceRelease: Sendable {
    /// How long after its last sound the device is let go.
    public var after: Duration
    /// Called on the synthesis thread once the device has gone, each time it goes: it must not wait.
    public var released: @Sendable () -> Void

    public init(after: Duration, released: @escaping @Sendable () -> Void = {}) {
        self.after = after
        self.released = released
    }
}
