/// Plays a cue when a question opens (`Announcement.Event.prompt`), then passes every announcement on: the disk
/// prompt at boot, shown as text when no sound card speaks, is also heard as the PC speaker's tones (`BootCue`). The
/// executable puts it around the text lines only, so a voice that speaks is never doubled by beeps.
public final class CueSpeechBackend: SpeechBackend {
    private let wrapped: any SpeechBackend
    private let cue: BootCue
    private let play: (BootCue) -> Void
    private var played = false

    /// - Parameter play: starts the tones and returns at once; called once, for the first opening only (a retry's
    ///   field is a new prompt, with its own cue).
    public init(wrapping wrapped: any SpeechBackend, cue: BootCue, play: @escaping (BootCue) -> Void) {
        self.wrapped = wrapped
        self.cue = cue
        self.play = play
    }

    public func speak(_ announcement: Announcement) {
        if announcement.event == .prompt && !played {
            played = true
            play(cue)
        }
        wrapped.speak(announcement)
    }

    public func finish(timeout: Duration) { wrapped.finish(timeout: timeout) }
    public var progress: SpeechProgress? { wrapped.progress }
}
