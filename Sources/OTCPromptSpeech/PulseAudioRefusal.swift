import OTCPromptSystem

/// Another user's PulseAudio, refused once for the whole process: then no component of otc-prompt asks
/// any audio server at all.
///
/// libpulse reads `PULSE_SERVER` and the runtime directory from the process's environment itself, and so
/// do pcaudiolib's PulseAudio backend, ALSA's pulse plugin behind pcaudiolib's ALSA backend, and
/// espeak-ng's own probe: refusing the route alone is not enough, a library would still connect (and send
/// the user's PulseAudio cookie). So the decision is made once, before any of them runs, and every way to
/// a device checks it: the prepared stream (`PreparedStream`), the default device (`openDevice`) and
/// espeak-ng's probe (`EspeakAudioProbe`). A refused process has no audio device: speech becomes text.
public enum PulseAudioRefusal {
    private static let lock = ConditionLock()
    nonisolated(unsafe) private static var why: String?

    /// Refuses every audio server for the rest of the process; `reason` is said when a device is asked for.
    public static func refuse(because reason: String) {
        lock.withLock { why = reason }
    }

    /// Why audio servers are refused; nil when they are not.
    public static var reason: String? {
        lock.withLock { why }
    }
}
