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
    /// 2. the person is elsewhere (`location`, or, with no terminal to follow or no multiplexer between,
    ///    SSH_CONNECTION or SSH_TTY): only a route they forwarded: `SPEECHD_ADDRESS` → that speech-dispatcher,
    ///    `PULSE_SERVER` → espeak-ng through that PulseAudio (never this machine's speech-dispatcher);
    ///    else text, which their own screen reader or braille display reads; never this machine's speakers;
    /// 3. the user's own speech-dispatcher answers on its socket (another user's is refused, and skipped);
    /// 4. the user's own screen reader runs, with speech-dispatcher installed: speechd, started if needed
    ///    (not over a refused socket);
    /// 5. espeak-ng on the audio device, which falls back to text when there is none.
    ///
    /// The probes are asked lazily, in that order, so a rule that holds early costs nothing more.
    /// - Parameters:
    ///   - chosen: the user's explicit choice, nil for auto.
    ///   - location: where the person typing is, from their terminal's session.
    ///   - environment: the caller's, for what was forwarded and for hints.
    ///   - speechDispatcher: whether a speech-dispatcher answers at the user's address, and whose it is.
    ///   - screenReader: the name of a screen reader the user runs, nil when none does.
    ///   - speechDispatcherInstalled: whether the speech-dispatcher program is installed.
    public static func choose(
        chosen: Kind?, location: SessionLocation, environment: [String: String],
        speechDispatcher: () -> SpeechServerProbe, screenReader: () -> String?,
        speechDispatcherInstalled: () -> Bool
    ) -> SpeechRoute {
        if let chosen { return SpeechRoute(chosen, reason: "chosen by --speech or the config file") }
        if let elsewhere = remoteEvidence(location: location, environment: environment) {
            return forwarded(elsewhere, environment: environment, speechDispatcher: speechDispatcher)
        }
        let server = speechDispatcher()
        if server == .answers {
            return SpeechRoute(.speechd, reason: "speech-dispatcher answers on its socket")
        }
        if case .refused(let why) = server {
            return SpeechRoute(
                .espeak,
                reason: "the speech-dispatcher found is refused (\(why)): espeak-ng on the audio device, text lines "
                    + "if there is none")
        }
        if let reader = screenReader(), speechDispatcherInstalled() {
            return SpeechRoute(
                .speechd, autospawn: true,
                reason: "\(reader) runs and speech-dispatcher is installed, so it is started to share one voice")
        }
        return SpeechRoute(
            .espeak, reason: "no speech server: espeak-ng on the audio device, text lines if there is none")
    }

    /// Why the person is elsewhere, or may be; nil when they are here. The environment's SSH variables count
    /// when nothing better is known, and not in a multiplexer's pane, whose environment is its server's.
    public static func remoteEvidence(location: SessionLocation, environment: [String: String]) -> String? {
        if location.place == .remote { return location.evidence }
        // A pane nobody is attached to: whoever attaches later may be anywhere.
        if location.place == .unknown, location.multiplexer != nil { return location.evidence }
        let hint = ["SSH_CONNECTION", "SSH_TTY"].first { !(environment[$0] ?? "").isEmpty }
        guard let hint, location.multiplexer == nil else { return nil }
        return location.place == .unknown
            ? "\(location.evidence), and \(hint) says an SSH session" : "\(hint) says an SSH session"
    }

    private static func forwarded(
        _ elsewhere: String, environment: [String: String], speechDispatcher: () -> SpeechServerProbe
    ) -> SpeechRoute {
        if !(environment["SPEECHD_ADDRESS"] ?? "").isEmpty, speechDispatcher() == .answers {
            return SpeechRoute(
                .speechd,
                reason: "speech-dispatcher answers on its socket, the one SPEECHD_ADDRESS forwards (\(elsewhere))")
        }
        if let server = environment["PULSE_SERVER"], !server.isEmpty {
            return SpeechRoute(
                .espeak,
                reason: "\(elsewhere), and PULSE_SERVER forwards audio: espeak-ng through that PulseAudio, "
                    + "never this machine's speech-dispatcher")
        }
        return SpeechRoute(
            .text,
            reason: "you are not at this machine (\(elsewhere)) and no audio is forwarded: announcements are "
                + "text lines, which your own screen reader or braille display reads; this machine's speakers "
                + "are never used")
    }

    /// `--audio-file`: espeak-ng writes every announcement into the file, whatever else runs.
    public static let intoAudioFile = SpeechRoute(.espeak, reason: "--audio-file: espeak-ng speaks into that file")
}

/// What the user's speech-dispatcher address gave.
public enum SpeechServerProbe: Equatable, Sendable {
    case answers
    /// Nothing answers there (yet).
    case silent
    /// A server is there but is not the user's own (its socket or its peer belongs to another uid): why.
    case refused(String)
}

/// The screen readers that speak through speech-dispatcher, by the names their processes run under.
public enum ScreenReaders {
    /// The first screen reader found: Orca, Fenrir, brltty (its speech driver), or Speakup (a kernel module
    /// that speechd-up connects to speech-dispatcher), in that order; nil when none runs.
    /// - Parameters:
    ///   - processNames: the names of the processes the user runs (never another user's).
    ///   - onConsole: whether the person is at a virtual console: brltty and Speakup serve the console,
    ///     and say nothing about a person in a terminal window or over SSH.
    public static func running(among processNames: Set<String>, speakupLoaded: Bool, onConsole: Bool) -> String? {
        var known: [(process: String, name: String)] = [("orca", "Orca"), ("fenrir", "Fenrir")]
        if onConsole { known.append(("brltty", "brltty")) }
        if let found = known.first(where: { processNames.contains($0.process) }) { return found.name }
        return speakupLoaded && onConsole ? "Speakup" : nil
    }
}
