/// The voice while it is still starting (espeak-ng, the audio server, speech-dispatcher): the prompt
/// is drawn and takes keys at once, and what it announces meanwhile is held, then caught up in one
/// announcement the moment a voice is ready.
///
/// Catching up says the newest state, not every held announcement in turn: a listener who typed
/// ahead wants to hear what is asked and what the field holds now, not a queue of stale echoes
/// ("empty", then each digit) that would keep them waiting (`catchUp`).
///
/// A voice that fails, or turns out not to be there (`UnavailableVoice`), is reported through this one to
/// `SpeechFallback`, which owns the switch to text.
public final class HeldSpeech: FallibleSpeechBackend {
    private var backend: (any SpeechBackend)?
    /// `backend` when it can fail, found once at `release` (not cast again on every key).
    private var fallible: (any FallibleSpeechBackend)?
    private var heldCount = 0
    private var latest: Announcement?
    /// The voice most likely to be the one (espeak-ng, starting): it is given the first announcement
    /// at once and says it the moment it is ready, without waiting for `release`.
    private var provisional: (any SpeechBackend)?

    /// - Parameter provisional: a voice that keeps what it is asked until it is ready; it gets the first
    ///   announcement (normally the opening) at once, so the opening starts with no hop through the loop.
    public init(provisional: (any SpeechBackend)? = nil) {
        self.provisional = provisional
    }

    /// True until `release` has been called.
    public var isHolding: Bool { backend == nil }

    /// While held, what was given is not heard yet; then the voice says.
    public var isSpeaking: Bool { backend.map(\.isSpeaking) ?? (heldCount > 0) }

    public func speak(_ announcement: Announcement) {
        if let backend { return backend.speak(announcement) }
        heldCount += 1
        latest = announcement
        if heldCount == 1 { provisional?.speak(announcement) }
    }

    public func finish(timeout: Duration) {
        backend?.finish(timeout: timeout)
    }

    public var newsDescriptor: Int32? { backend?.newsDescriptor }
    public func takeNews() { backend?.takeNews() }
    public var progress: SpeechProgress? { backend?.progress }

    /// The released voice's failure; nil while holding, or when that voice cannot fail.
    public var failure: SpeechFailure? { fallible?.failure }

    public func takeUnsaid() -> [Announcement] { fallible?.takeUnsaid() ?? [] }

    /// From now on `backend` speaks; first it says what `catchUp` picks of what was held.
    /// - Parameter currentState: the prompt's opening for its state now (label, field, hints).
    public func release(to backend: any SpeechBackend, currentState: () -> Announcement?) {
        guard self.backend == nil else { return }
        self.backend = backend
        fallible = backend as? any FallibleSpeechBackend
        // The provisional voice already has the one announcement: it is said, or being said.
        let alreadyGiven = heldCount == 1 && provisional === backend
        provisional = nil
        if !alreadyGiven, let announcement = Self.catchUp(count: heldCount, latest: latest, currentState: currentState)
        {
            backend.speak(announcement)
        }
        heldCount = 0
        latest = nil
    }

    /// The one announcement that stands for `count` held ones, the newest being `latest`:
    /// - one: itself (the opening, normally: the voice was ready before any key);
    /// - the last is final (the code was complete, the prompt cancelled): the last, which ends it;
    /// - the last echoes a key (a digit, a delete, a paste): the opening for the field as it is now,
    ///   which names what is asked, says what has been typed as one grouped value and how to go on;
    /// - otherwise (help, a readback, the time left, a check's news): the last, which answers
    ///   what the user just asked for.
    public static func catchUp(count: Int, latest: Announcement?, currentState: () -> Announcement?)
        -> Announcement?
    {
        guard let latest else { return nil }
        if count == 1 || latest.isFinal { return latest }
        switch latest.event {
        case .digit, .delete, .clear, .paste, .reject, .full, .incomplete, .prompt:
            return currentState() ?? latest
        case .readback, .complete, .cancel, .help, .checking, .checkFailed, .checkError, .timeLeft, .timeout,
            .confirm, .notice, .unreadable:
            return latest
        }
    }
}
