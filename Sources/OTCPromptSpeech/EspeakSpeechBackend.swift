import OTCPromptCore
import OTCPromptSystem

/// Speaks announcements with espeak-ng: synthesis on its own thread in SYNCHRONOUS mode, audio
/// in ~10 ms chunks to a device or WAV file, and a new announcement cuts the old one within
/// one chunk. The caller's thread never waits for speech.
///
/// Start-up can overlap the caller's own (terminal set-up): `start` returns at once and
/// `waitUntilReady` reports the outcome; `speak` before readiness is kept and played once ready.
public final class EspeakSpeechBackend: SpeechBackend, @unchecked Sendable {
    private let synthesis: SynthesisThread
    /// Where a WAV file's sink says why it stopped taking audio; nil for a device.
    private let fileStatus: AudioFileStatus?

    /// Why audio to the `--audio-file` stopped (a FIFO whose reader stopped reading); nil while it flows,
    /// and for a device. The prompt then shows announcements as text.
    public var audioFileFailure: String? { fileStatus?.failure }

    /// The number (`speakNumbered`) of the newest announcement asked for when the audio file stopped: that
    /// one and all later ones were not heard to their end. nil while it flows, and for a device.
    public var audioFileStoppedDuring: UInt64? { fileStatus?.stoppedDuring }

    /// Starts espeak-ng and opens `output`, waiting until both are ready.
    /// - Throws: `.noAudioDevice` (nothing reaches the terminal's stderr), `.unknownVoice`,
    ///   `.engineUnavailable`, `.cannotWriteFile`, `.libraryUnavailable`.
    public convenience init(options: SpeechOptions, output: SpeechOutput) throws(SpeechError) {
        self.init(
            options: options, bufferMilliseconds: 10, opensSinkBeside: output.isDevice,
            output: output)
        try waitUntilReady()
    }

    /// Starts espeak-ng and `output` on the synthesis thread and returns at once.
    /// - Parameters:
    ///   - muted: start before it is known to be wanted (`--speech auto` still probing): what it is asked to
    ///     say waits until `unmute`, so it gains the probes' time and says nothing if unused.
    ///   - releaseAfterSilence: for a voice that mostly waits, a device is let go after a silence (`DeviceRelease`),
    ///     so that nothing of it wakes while idle, and opened again for the next announcement; nil keeps it until
    ///     `finish`. An audio file is always kept.
    public static func start(
        options: SpeechOptions, output: SpeechOutput, muted: Bool = false, releaseAfterSilence: DeviceRelease? = nil
    ) -> EspeakSpeechBackend {
        EspeakSpeechBackend(
            options: options, bufferMilliseconds: 10, opensSinkBeside: output.isDevice, muted: muted,
            releaseAfterSilence: output.isDevice ? releaseAfterSilence : nil, output: output)
    }

    /// Loads espeak-ng's data and `voiceName` on a thread of its own, from the first moment of the
    /// process, before the options are even parsed: the engine started later finds them loaded (the
    /// library is initialised once per process, and keeps the last voice's dictionary). Nothing is
    /// written to stderr meanwhile in espeak-ng 1.51, and no server is asked (`EspeakAudioProbe`).
    /// The default device's PulseAudio stream is opened meanwhile too (`PreparedStream`).
    public static func prepare(voiceName: String) {
        // Only a head start: without a thread, the engine loads its voice when it starts.
        try? startThread { EngineLease.shared.prepare(voiceName: voiceName, bufferMilliseconds: 10) }
        PreparedStream.shared.start()
    }

    /// Lets a backend started `muted` speak; the newest announcement asked for is said once it is ready.
    public func unmute() {
        synthesis.unmute()
    }

    /// Starts with a sink of the caller's (benchmarks and tests); returns at once.
    /// - Parameter bufferMilliseconds: audio per chunk, the granularity of interruption.
    public static func start(
        options: SpeechOptions, bufferMilliseconds: Int = 10, releaseAfterSilence: DeviceRelease? = nil,
        makeSink: @escaping AudioSinkFactory
    ) -> EspeakSpeechBackend {
        EspeakSpeechBackend(
            options: options, bufferMilliseconds: bufferMilliseconds, releaseAfterSilence: releaseAfterSilence,
            makeSink: makeSink)
    }

    private init(
        options: SpeechOptions, bufferMilliseconds: Int, opensSinkBeside: Bool = false, muted: Bool = false,
        releaseAfterSilence: DeviceRelease? = nil, makeSink: @escaping AudioSinkFactory,
        fileStatus: AudioFileStatus? = nil
    ) {
        self.fileStatus = fileStatus
        synthesis = SynthesisThread(
            options: options, bufferMilliseconds: bufferMilliseconds, opensSinkBeside: opensSinkBeside,
            muted: muted, releaseAfterSilence: releaseAfterSilence, makeSink: makeSink,
            generations: fileStatus?.generations ?? GenerationCounter())
    }

    /// Speaks into `output`; a file's sink reports a stop through the backend's `audioFileFailure`.
    private convenience init(
        options: SpeechOptions, bufferMilliseconds: Int, opensSinkBeside: Bool, muted: Bool = false,
        releaseAfterSilence: DeviceRelease? = nil, output: SpeechOutput
    ) {
        let status = AudioFileStatus()
        self.init(
            options: options, bufferMilliseconds: bufferMilliseconds, opensSinkBeside: opensSinkBeside, muted: muted,
            releaseAfterSilence: releaseAfterSilence, makeSink: Self.sinkFactory(for: output, status: status),
            fileStatus: output.isDevice ? nil : status)
    }

    deinit {
        synthesis.finish(deadline: 0)
    }

    /// Waits until espeak-ng and the output are ready; throws why speech cannot start.
    public func waitUntilReady() throws(SpeechError) {
        if case .failure(let error) = synthesis.waitUntilReady() { throw error }
    }

    /// Waits at most `timeout` for espeak-ng and the output; throws why speech cannot start, or
    /// `.notReadyInTime` when they are still starting (a library that hangs is left to itself).
    ///
    /// The time counted is the time the process ran: it waits in slices, and a slice that took far longer than
    /// asked is a process stopped meanwhile (Ctrl-Z, then `fg`), whose stop is not the voice's slowness.
    public func waitUntilReady(timeout: Duration) throws(SpeechError) {
        let slice: UInt64 = 100_000_000
        var left = UInt64(clamping: timeout.nanosecondsRoundedUp)
        while true {
            let start = monotonicNanoseconds()
            let asked = min(left, slice)
            switch synthesis.waitUntilReady(deadline: start &+ asked) {
            case .success?: return
            case .failure(let error)?: throw error
            case nil:
                let waited = min(monotonicNanoseconds() &- start, asked &+ slice)
                guard waited < left else { throw .notReadyInTime(timeout) }
                left -= waited
            }
        }
    }

    /// espeak-ng's sample rate (waits for start-up to end), or nil when speech could not start.
    public var sampleRate: Int? {
        try? synthesis.waitUntilReady().get()
    }

    public func speak(_ announcement: Announcement) {
        speakNumbered(announcement)
    }

    /// Speaks `announcement` and returns its number, increasing with each one: an audio file that stops
    /// says from which number on nothing was heard whole (`audioFileStoppedDuring`).
    @discardableResult
    public func speakNumbered(_ announcement: Announcement) -> UInt64 {
        let isEcho = !announcement.isFinal && [.digit, .delete].contains(announcement.event)
        return synthesis.speak(SpokenText.ssml(announcement.said), isEcho: isEcho)
    }

    /// Whether an announcement is still waiting, being synthesised or playing.
    public var isSpeaking: Bool { synthesis.isSpeaking }

    public var progress: SpeechProgress? { synthesis.progress }

    /// Lets the last announcement play to its end, for at most `timeout`, then closes the
    /// device or finalises the WAV file.
    public func finish(timeout: Duration) {
        synthesis.finish(deadline: monotonicNanoseconds() &+ UInt64(clamping: timeout.nanosecondsRoundedUp))
    }

    /// The default sound device: a short-buffered PulseAudio stream, else pcaudiolib (ALSA, OSS).
    /// A PulseAudio server that accepts and never answers is not asked again through pcaudiolib,
    /// whose own PulseAudio attempt (and ALSA's pulse plugin) would wait on it for 120 s.
    /// Nothing is opened when PulseAudio is refused (`PulseAudioRefusal`): not even pcaudiolib, whose
    /// PulseAudio backend, and ALSA's pulse plugin behind its ALSA one, would connect to that server.
    public static func openDevice(sampleRate: Int) throws(SpeechError) -> any AudioSink {
        if let refused = PulseAudioRefusal.reason { throw .noAudioDevice(refused) }
        if sampleRate == EspeakEngine.usualSampleRate, let prepared = PreparedStream.shared.take() {
            switch prepared {
            case .success(let sink): return sink
            case .failure(.audioServerDidNotAnswer(let server, let limit)):
                throw .audioServerDidNotAnswer(server, within: limit)
            case .failure: break  // tried again below, with pcaudiolib's fallback
            }
        }
        do {
            return try PulseAudioSink(sampleRate: sampleRate)
        } catch {
            if case .audioServerDidNotAnswer = error { throw error }
            do {
                return try PCAudioSink(sampleRate: sampleRate)
            } catch let fallback {
                guard case .noAudioDevice(let reason) = fallback, case .noAudioDevice(let pulse) = error else {
                    throw fallback
                }
                throw .noAudioDevice("\(pulse); pcaudiolib: \(reason)")
            }
        }
    }

    private static func sinkFactory(for output: SpeechOutput, status: AudioFileStatus) -> AudioSinkFactory {
        switch output {
        case .device:
            return { rate throws(SpeechError) in try openDevice(sampleRate: rate) }
        case .file(let descriptor, let isRegularFile, let path, let writer):
            return { rate throws(SpeechError) in
                try WAVFileSink(
                    descriptor: descriptor, isRegularFile: isRegularFile, path: path, writer: writer, sampleRate: rate,
                    status: status)
            }
        }
    }
}
