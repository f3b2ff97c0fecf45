import OTCPromptCore

/// The password agent and systemd's own requests: what they ask (`SystemAsk`), how a retry is told from a first try
/// (`AgentRetries`), and the PC speaker's cue when they are asked at boot with no sound card (`BootCue`).
extension AgentFrontEnd {
    /// What a request asks, read from systemd's words: only for a password request of the system's, since a program
    /// of the user's could write the same words (its message is then its own).
    public static func systemAsk(_ file: AskFile, from origin: AskOrigin) -> SystemAsk? {
        origin == .system && file.kind == .password ? SystemAsk(message: file.message) : nil
    }

    /// The key `AgentRetries` counts the request's tries by.
    public static func retryKey(_ file: AskFile, from origin: AskOrigin) -> String {
        AgentRetries.key(id: file.id, asked: systemAsk(file, from: origin))
    }

    /// The cue at boot: a retry's, a PIN's, or the question's.
    public static func cue(_ file: AskFile, from origin: AskOrigin, attempt: Int) -> BootCue {
        let asked = systemAsk(file, from: origin)
        return BootCue.question(isPIN: asked?.isPIN ?? false, attempt: max(attempt, asked?.attempt ?? 1))
    }

    /// What the agent says the moment a request's password has been sent: a FIDO2 key's PIN is followed by the key
    /// asking for a touch (systemd-cryptsetup then waits on the user's hand, saying nothing), so "Touch your security
    /// key." at once; nil for any other request. `AgentModel` says it (`Event.appeared`'s `afterAnswer`).
    public func afterAnswer(_ file: AskFile, from origin: AskOrigin) -> String? {
        guard Self.systemAsk(file, from: origin)?.secret == .securityTokenPIN(token: nil) else { return nil }
        return Wording(language: language).touchSecurityKey
    }

    /// "Wrong passphrase, try 2.": the try is systemd's own count where it gives one (a PKCS#11 token's), else the
    /// agent's; nothing on a first try.
    static func retryNews(_ asked: SystemAsk, attempt: Int, wording: Wording) -> [String]? {
        let tried = max(attempt, asked.attempt ?? 1)
        return tried > 1 ? [wording.systemAskRetry(asked, attempt: tried)] : nil
    }
}
