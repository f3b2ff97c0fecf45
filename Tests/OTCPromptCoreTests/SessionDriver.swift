import OTCPromptTestSupport

@testable import OTCPromptCore

/// Drives a session the way the program does: every announcement goes to the shared recording
/// speech backend, every other effect is kept.
struct SessionDriver {
    var session: PromptSession
    let speech = RecordingSpeechBackend()
    /// The effects of the last key (or `start()`).
    private(set) var lastEffects: [PromptEffect] = []
    /// Every effect that is not an announcement, in order.
    private(set) var actions: [PromptEffect] = []

    init(_ configuration: PromptConfiguration) {
        session = PromptSession(configuration: configuration)
    }

    init(
        length: Int = 6, charset: CodeCharset = .digits, mask: Bool = false, autoSubmit: Bool = true,
        language: Language = .en, verbosity: Verbosity = .normal
    ) {
        self.init(
            PromptConfiguration(
                length: length, charset: charset, mask: mask, autoSubmit: autoSubmit, language: language,
                verbosity: verbosity))
    }

    mutating func start() {
        perform(session.start())
    }

    mutating func press(_ keys: Key...) {
        for key in keys { perform(session.handle(key)) }
    }

    mutating func type(_ text: String) {
        for character in text { press(.character(character)) }
    }

    /// A bracketed paste, its text arriving in `pieces` as the decoder may split it.
    mutating func paste(_ pieces: String...) {
        press(.pasteBegan)
        for piece in pieces { press(.pasteText(piece)) }
        press(.pasteEnded)
    }

    /// The program's side of `--check` and `--timeout`: the verdict and the time, as values.
    mutating func checkIsSlow() { perform(session.checkIsSlow()) }
    mutating func checkAccepted() { perform(session.checkAccepted()) }
    mutating func checkRejected(_ line: String? = nil) { perform(session.checkRejected(firstErrorLine: line)) }
    mutating func checkTimedOut() { perform(session.checkTimedOut()) }
    mutating func tick(at now: Duration) { perform(session.tick(at: now)) }

    private mutating func perform(_ effects: [PromptEffect]) {
        lastEffects = effects
        for effect in effects {
            if case .announce(let announcement) = effect { speech.speak(announcement) } else { actions.append(effect) }
        }
    }

    /// The announcements of the last key.
    var lastAnnouncements: [Announcement] {
        lastEffects.compactMap { if case .announce(let announcement) = $0 { announcement } else { nil } }
    }

    var last: Announcement? { speech.spoken.last }
    var submitted: String? {
        actions.lazy.compactMap { if case .submit(let code) = $0 { code.text } else { nil } }.first
    }
    var cancelled: Bool { actions.contains(.cancel) }
    /// The codes sent to the check, in order.
    var checked: [String] {
        actions.compactMap { if case .check(let code) = $0 { code } else { nil } }
    }
}

extension SessionDriver {
    var snapshot: FieldSnapshot { session.snapshot }
}
