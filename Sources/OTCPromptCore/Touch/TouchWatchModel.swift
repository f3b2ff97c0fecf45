/// The touch watcher's decisions as a value (`otc-prompt --touch-watch`): whether a security key waits for a
/// touch, from pam_u2f's pending file and yubikey-touch-detector's socket, and when to say so. Everything that
/// happens is an `Event` given to `update`, which returns the `Effect`s; the watcher's loop only translates between
/// this and the world (inotify, the socket, the voice, the clock), so every interleaving can be driven here.
///
/// The rules it keeps:
/// - a wait is any time when at least one signal says the key waits; both signals of one wait (pam_u2f's file and
///   the detector's `U2F_1` for the same request) are one wait, and so is a wait that resumes within
///   `mergeWindow` of its end (a signal arriving late, or pam_u2f trying its next key);
/// - each wait is cued once, at the event that began it, and nothing more is said until the next wait begins,
///   but "done" after it, when the user asked for it and the wait has stayed over for `mergeWindow`;
/// - nothing is said while no wait is on, and no wake-up is asked for unless "done" is to be said.
public struct TouchWatchModel: Equatable, Sendable {
    public enum Event: Equatable, Sendable {
        /// pam_u2f's pending file was opened (its IN_OPEN): pam_u2f waits while it holds it.
        case pendingFileOpened
        /// …and closed (IN_CLOSE_NOWRITE or IN_CLOSE_WRITE).
        case pendingFileClosed
        /// The file's opens can no longer be counted (inotify's queue overflowed): none is believed open.
        case pendingFileForgotten
        /// Bytes from the detector's socket, as read.
        case detectorBytes([UInt8])
        /// The detector's socket was connected, or lost (the detector stopped or restarted): what it said of its
        /// waits before is forgotten either way.
        case detectorConnected
        case detectorLost
        /// The time since the watcher started, for a wake-up asked for.
        case clock(Duration)
    }

    public enum Effect: Equatable, Sendable {
        /// "Touch your security key." (or the tone the user chose).
        case cue
        /// "Done.": the wait ended (only when the user asked to hear it).
        case released
        /// Give `.clock` at this time.
        case wake(at: Duration)
    }

    /// How long after a wait ends a new signal still belongs to it.
    public static let mergeWindow: Duration = .milliseconds(500)

    /// Whether "done" is said when a wait ends.
    public let saysRelease: Bool
    /// The pending file's opens not closed yet, as inotify counted them.
    public private(set) var openFiles = 0
    /// The detector's kinds of wait on now.
    public private(set) var detectorWaits: Set<TouchDetectorStream.Kind> = []
    private var stream = TouchDetectorStream()
    /// When the last wait ended, while a new signal may still belong to it; nil once that is past or while one is on.
    private var endedAt: Duration?
    /// The time of the newest event, for the events that carry none.
    private var now: Duration = .zero

    public init(saysRelease: Bool) {
        self.saysRelease = saysRelease
    }

    /// Whether the key waits for a touch now.
    public var isWaiting: Bool { openFiles > 0 || !detectorWaits.isEmpty }

    /// The state after `event`, given at `time` (the time since the watcher started), and what to do.
    public mutating func update(_ event: Event, at time: Duration) -> [Effect] {
        now = max(now, time)
        let wasWaiting = isWaiting
        var effects: [Effect] = []
        switch event {
        case .pendingFileOpened: openFiles += 1
        case .pendingFileClosed: openFiles = max(0, openFiles - 1)
        case .pendingFileForgotten: openFiles = 0
        case .detectorBytes(let bytes):
            for message in stream.feed(bytes) {
                if message.waiting {
                    detectorWaits.insert(message.kind)
                } else {
                    detectorWaits.remove(message.kind)
                }
            }
        case .detectorConnected, .detectorLost:
            stream.reset()
            detectorWaits.removeAll()
        case .clock: break
        }
        if isWaiting && !wasWaiting {
            // Resumed within the window: the same wait, already cued.
            if let endedAt, now - endedAt < Self.mergeWindow {
                self.endedAt = nil
            } else {
                // The wake-up for the last wait's "done" came late: it is said before the new cue, never lost.
                if endedAt != nil && saysRelease { effects.append(.released) }
                endedAt = nil
                effects.append(.cue)
            }
        } else if !isWaiting && wasWaiting {
            endedAt = now
            if saysRelease { effects.append(.wake(at: now + Self.mergeWindow)) }
        } else if !isWaiting, let endedAt, now - endedAt >= Self.mergeWindow {
            self.endedAt = nil
            if saysRelease { effects.append(.released) }
        }
        return effects
    }
}
