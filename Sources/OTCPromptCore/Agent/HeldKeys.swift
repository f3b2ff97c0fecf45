/// `TypeAheadRule.heldUntilHeard`: every key is dropped until the first sentence of the opening has been heard and
/// then nothing has been typed for `quiet`, and the number dropped is said once. Pure: the loop gives it the keys
/// with their time, and whether the voice is still speaking.
///
/// The rule is what the user heard, not a fixed time: a listener typing the last request's password at their own
/// pace (a key every half second) goes on until they hear the news, and every key until they stop is dropped,
/// however the next request was timed to appear.
public struct HeldKeys: Equatable, Sendable {
    public let quiet: Duration
    /// When the opening was given to the voice: the switch the user has to hear.
    public let start: Duration
    /// When the last key was dropped; at first, when the prompt appeared.
    public private(set) var lastKeyAt: Duration
    public private(set) var dropped = 0
    public private(set) var isHolding = true

    /// How often the loop looks again while the voice still speaks: what it says is not followed by an event.
    public static let speakingRecheck: Duration = .milliseconds(100)

    /// The longest first sentence of an opening, in audio: the news ("Request withdrawn.") and what is asked. A voice
    /// still speaking past it is saying the details, which a key may cut.
    public static let firstSentence: Duration = .seconds(3)

    public init(quiet: Duration, since start: Duration) {
        self.quiet = quiet
        self.start = start
        lastKeyAt = start
    }

    /// Whether the first sentence has been heard at `now`: the voice has stopped, or has spoken past it.
    private func heard(at now: Duration, speaking: Bool) -> Bool {
        !speaking || now - start >= Self.firstSentence
    }

    /// The keys of a read at `time`: all of them while holding, none kept; each that is a key the user pressed
    /// counted (what the terminal sends on its own is not) and the quiet begun again.
    public mutating func take(_ keys: [Key], at time: Duration) -> [Key] {
        guard isHolding else { return keys }
        let pressed = keys.filter {
            switch $0 {
            case .terminalReport, .pasteBegan, .pasteEnded: false
            default: true
            }
        }
        if !pressed.isEmpty {
            dropped += pressed.count
            lastKeyAt = max(lastKeyAt, time)
        }
        return []
    }

    /// At `now`, with the voice `speaking` or not: whether the hold ends, and then how many keys were dropped (to
    /// be said when more than none).
    public mutating func release(at now: Duration, speaking: Bool) -> Int? {
        guard isHolding, heard(at: now, speaking: speaking), now - lastKeyAt >= quiet else { return nil }
        isHolding = false
        return dropped
    }

    /// When the loop must look again (nil once released): the quiet's end, or soon while the first sentence may
    /// still be playing (nothing tells when a voice stops).
    public func deadline(at now: Duration, speaking: Bool) -> Duration? {
        guard isHolding else { return nil }
        guard !heard(at: now, speaking: speaking) else { return lastKeyAt + quiet }
        return max(lastKeyAt + quiet, min(now + Self.speakingRecheck, start + Self.firstSentence))
    }
}
