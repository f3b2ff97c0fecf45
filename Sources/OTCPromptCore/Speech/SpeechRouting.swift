/// Where announcements go once `--speech auto` is decided, and why: said in `--help`, `--doctor` and the
/// speech log, so a user who hears nothing can find out.
public struct SpeechRoute: Equatable, Sendable {
    public enum Kind: String, Equatable, Sendable {
        /// The user's speech-dispatcher: their voice, rate and queue, shared with their screen reader.
        case speechd
        /// espeak-ng on the audio device (text when there is none).
        case espeak
        /// One line per announcement, for the user's own screen reader or braille display.
        case text
        case none
    }

    public var kind: Kind
    /// Start speech-dispatcher if it does not answer (as libspeechd's autospawn does).
    public var autospawn: Bool
    /// One sentence: why this way.
    public var reason: String

    public init(_ kind: Kind, autospawn: Bool = false, reason: String) {
        self.kind = kind
        self.autospawn = autospawn
        self.reason = reason
    }

    /// The automatic choice, first rule that holds:
    /// 1. what the user chose (`--speech` or the config file);
    /// 2. an SSH session with no audio forwarded (no PULSE_SERVER, no SPEECHD_ADDRESS): text, which the user's
    ///    own screen reader or braille display reads on their machine; never the remote machine's speakers;
    /// 3. a speech-dispatcher that answers on its socket;
    /// 4. a screen reader running (Orca, Fenrir, brltty, Speakup) with speech-dispatcher installed: speechd,
    ///    started if needed;
    /// 5. espeak-ng on the audio device, which falls back to text when there is none.
    ///
    /// The probes are asked lazily, in that order, so a rule that holds early costs nothing more.
    /// - Parameters:
    ///   - chosen: the user's explicit choice, nil for auto.
    ///   - speechDispatcherAnswers: whether a speech-dispatcher answers at the user's address.
    ///   - screenReader: the name of a running screen reader, nil when none runs.
    ///   - speechDispatcherInstalled: whether the speech-dispatcher program is installed.
    public static func choose(
        chosen: Kind?, environment: [String: String], speechDispatcherAnswers: () -> Bool,
        screenReader: () -> String?, speechDispatcherInstalled: () -> Bool
    ) -> SpeechRoute {
        if let chosen { return SpeechRoute(chosen, reason: "chosen by --speech or the config file") }
        let isSSH = environment["SSH_CONNECTION"] != nil || environment["SSH_TTY"] != nil
        let audioForwarded = environment["PULSE_SERVER"] != nil || environment["SPEECHD_ADDRESS"] != nil
        if isSSH && !audioForwarded {
            return SpeechRoute(
                .text,
                reason: "an SSH session with no audio forwarded: announcements are text lines, which your own "
                    + "screen reader or braille display reads; this machine's speakers are never used")
        }
        if speechDispatcherAnswers() {
            return SpeechRoute(.speechd, reason: "speech-dispatcher answers on its socket")
        }
        if let reader = screenReader(), speechDispatcherInstalled() {
            return SpeechRoute(
                .speechd, autospawn: true,
                reason: "\(reader) runs and speech-dispatcher is installed, so it is started to share one voice")
        }
        return SpeechRoute(
            .espeak, reason: "no speech server: espeak-ng on the audio device, text lines if there is none")
    }

    /// `--audio-file`: espeak-ng writes every announcement into the file, whatever else runs.
    public static let intoAudioFile = SpeechRoute(.espeak, reason: "--audio-file: espeak-ng speaks into that file")
}

/// The screen readers that speak through speech-dispatcher, by the names their processes run under.
public enum ScreenReaders {
    /// The first screen reader found: Orca, Fenrir, brltty (its speech driver), or Speakup (a kernel module
    /// that speechd-up connects to speech-dispatcher), in that order; nil when none runs.
    public static func running(among processNames: Set<String>, speakupLoaded: Bool) -> String? {
        let known: [(process: String, name: String)] = [("orca", "Orca"), ("fenrir", "Fenrir"), ("brltty", "brltty")]
        if let found = known.first(where: { processNames.contains($0.process) }) { return found.name }
        return speakupLoaded ? "Speakup" : nil
    }
}
