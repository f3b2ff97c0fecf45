import OTCPromptCore
import OTCPromptSystem

/// The one thread that calls espeak-ng: initialises it, synthesises the newest announcement,
/// and hands its audio to the writer. Requests are posted without waiting: only the newest
/// unsynthesised one is kept, so a burst of keys never builds a backlog.
///
/// A key echo heard before is not synthesised again: its audio is kept (`EchoAudioCache`) and,
/// while this thread is idle, played by the caller's thread itself, with no thread to wake.
///
/// A voice that waits long between announcements may let its device go once the last sound has been heard
/// (`DeviceRelease`): the stream is closed, the writer thread ends, whoever asked is told, and this thread waits
/// with no deadline; the next announcement opens the device again, as start-up does.
final class SynthesisThread: @unchecked Sendable {
    enum Readiness {
        case starting
        case ready(sampleRate: Int)
        case failed(SpeechError)
    }

    private struct Request {
        var text: String
        var generation: UInt64
        var isEcho: Bool
    }

    let generations: GenerationCounter
    private let options: SpeechOptions
    private let makeSink: AudioSinkFactory
    private let bufferMilliseconds: Int
    private let lock = ConditionLock()
    private var readiness = Readiness.starting
    private var pending: Request?
    /// This thread has taken a request and not yet handed over all its audio.
    private var synthesizing = false
    private var echoes = EchoAudioCache()
    private var finishing = false
    /// Started before it is known to be wanted (`--speech auto` still probing): it starts, but says
    /// nothing until `unmute`.
    private var muted: Bool
    private var writer: AudioWriter?
    private let trace = SpeechTrace.shared
    /// How long after the last sound the device is let go; nil: kept until `finish`.
    private let releaseAfterSilence: UInt64?
    /// Told each time the device has been let go.
    private let whenReleased: (@Sendable () -> Void)?
    /// The device was let go (`release`), and whether it is being opened again for a request (see `finish`).
    private var isReleased = false
    private var reopening = false
    /// Echoes being played on callers' threads (`speak`): the writer is not let go under them.
    private var replaying = 0

    /// Open the sink beside the engine's start-up rather than after it (a device: not a file, which
    /// cannot be opened twice should the guessed sample rate be wrong).
    private let opensSinkBeside: Bool

    init(
        options: SpeechOptions, bufferMilliseconds: Int, opensSinkBeside: Bool = false, muted: Bool = false,
        releaseAfterSilence: DeviceRelease? = nil, makeSink: @escaping AudioSinkFactory,
        generations: GenerationCounter = GenerationCounter()
    ) {
        self.generations = generations
        self.releaseAfterSilence = releaseAfterSilence.map { UInt64(clamping: $0.after.nanosecondsRoundedUp) }
        self.whenReleased = releaseAfterSilence?.released
        self.muted = muted
        self.options = options
        self.bufferMilliseconds = bufferMilliseconds
        self.opensSinkBeside = opensSinkBeside
        self.makeSink = makeSink
        do { try startThread { [self] in run() } } catch { readiness = .failed(error) }
    }

    /// Waits for initialisation to end; the sample rate, or why speech cannot start.
    func waitUntilReady() -> Result<Int, SpeechError> {
        lock.withLock {
            while true {
                switch readiness {
                case .starting: lock.wait()
                case .ready(let rate): return .success(rate)
                case .failed(let error): return .failure(error)
                }
            }
        }
    }

    /// Waits for initialisation to end until the monotonic `deadline`; nil when it has not.
    func waitUntilReady(deadline: UInt64) -> Result<Int, SpeechError>? {
        lock.withLock {
            while true {
                switch readiness {
                case .starting:
                    if !lock.wait(until: deadline), case .starting = readiness { return nil }
                case .ready(let rate): return .success(rate)
                case .failed(let error): return .failure(error)
                }
            }
        }
    }

    /// Lets a muted engine speak: the newest request waiting is said the moment it is ready.
    func unmute() {
        lock.withLock {
            muted = false
            lock.broadcast()
        }
    }

    /// Supersedes whatever is being spoken with `text`. Never waits for audio.
    /// - Parameter isEcho: `text` echoes a key ("9", "deleted 9"): its audio is kept for the next time.
    /// - Returns: its generation (0 once finishing): a file that stops says during which one.
    @discardableResult
    func speak(_ text: String, isEcho: Bool = false) -> UInt64 {
        let (activeWriter, generation, kept) = lock.withLock { () -> (AudioWriter?, UInt64, [[Int16]]?) in
            guard !finishing else { return (nil, 0, nil) }
            let generation = generations.next()
            // Played here only while this thread is idle: it then touches neither the sink nor the
            // generation until the next request, so nothing it does can cut the audio played here.
            if isEcho, !muted, !synthesizing, let writer, writer.playsOnCallingThread,
                let chunks = echoes.audio(for: text)
            {
                pending = nil
                replaying += 1
                return (writer, generation, chunks)
            }
            pending = Request(text: text, generation: generation, isEcho: isEcho)
            lock.broadcast()
            return (writer, generation, nil)
        }
        trace?.record("requested", generation: generation)
        if let kept {
            activeWriter?.replay(kept, generation: generation)
            lock.withLock {
                replaying -= 1
                // Only a voice waiting to let its device go needs to know; any other is not woken for it.
                if replaying == 0, releaseAfterSilence != nil { lock.broadcast() }
            }
        } else {
            activeWriter?.wake()
        }
        return generation
    }

    /// How far the newest announcement got: when its first sample reached the sink, and when the device will fall
    /// silent once all of it is there.
    var progress: SpeechProgress? {
        lock.withLock {
            let generation = generations.current
            guard generation > 0, !muted else { return nil }
            let began = generations.began(generation).map { Int64($0) }
            var heardBy: Int64?
            if pending == nil, !synthesizing, replaying == 0, let writer, case .ready(let sampleRate) = readiness {
                heardBy = Int64(writer.heardBy(sampleRate: sampleRate))
            }
            return SpeechProgress(number: generation, began: began, heardBy: heardBy)
        }
    }

    /// Whether an announcement is still to be heard: waiting (also for the engine to start), being synthesised or
    /// replayed, or its audio not yet played to its end. A muted engine says nothing, so it has nothing to hear.
    var isSpeaking: Bool {
        lock.withLock {
            if muted { return false }
            if pending != nil || synthesizing || replaying > 0 { return true }
            guard let writer, case .ready(let sampleRate) = readiness else { return false }
            return writer.heardBy(sampleRate: sampleRate) > monotonicNanoseconds()
        }
    }

    /// Lets the newest announcement play to its end and closes the sink, waiting until
    /// `deadline`; after it, stale audio is cut so the sink still closes (and a WAV is finalised).
    func finish(deadline: UInt64) {
        let activeWriter: AudioWriter? = lock.withLock {
            if case .starting = readiness { readiness = .failed(.engineUnavailable("finished before ready")) }
            finishing = true
            lock.broadcast()
            // A device let go is opened again for the last words: they are waited for as any others.
            while writer == nil, isReleased, !muted, reopening || pending != nil {
                if !lock.wait(until: deadline) { break }
            }
            return writer
        }
        guard let activeWriter else { return }
        if activeWriter.waitUntilClosed(deadline: deadline) { return }
        _ = generations.next()
        activeWriter.wake()
        _ = activeWriter.waitUntilClosed(deadline: monotonicNanoseconds() + 250_000_000)
    }

    private func run() {
        guard let engine = start() else { return }
        lock.withLock {
            while true {
                if !muted, let request = pending {
                    pending = nil
                    synthesizing = true
                    guard let writer = writer ?? reopenDevice(sampleRate: engine.sampleRate) else {
                        // No device any more: the announcement is not heard (the next prompt's start-up says why).
                        synthesizing = false
                        continue
                    }
                    let kept = request.isEcho ? echoes.audio(for: request.text) : nil
                    let heard = lock.unlocked { () -> [[Int16]]? in
                        trace?.record("woke", generation: request.generation)
                        if let kept {
                            writer.replay(kept, generation: request.generation)
                            return nil
                        }
                        writer.interruptDevice()
                        return synthesize(request, engine: engine, writer: writer)
                    }
                    if let heard { echoes.store(heard, for: request.text) }
                    synthesizing = false
                    continue
                }
                if finishing { break }
                if let linger = releaseAfterSilence, let active = writer, !muted {
                    let releaseAt = active.heardBy(sampleRate: engine.sampleRate) &+ linger
                    if replaying > 0 {
                        lock.wait()
                    } else if monotonicNanoseconds() >= releaseAt {
                        writer = nil
                        isReleased = true
                        lock.unlocked { release(active) }
                    } else {
                        lock.wait(until: releaseAt)
                    }
                    continue
                }
                lock.wait()
            }
            echoes.wipe()
        }
        engine.terminate()
        writer?.close()
    }

    /// Lets the device go: what is left plays out (nothing, after the silence), the stream is closed and the
    /// writer thread ends. Waits at most a second for it; the lock is not held.
    private func release(_ active: AudioWriter) {
        active.close()
        _ = active.waitUntilClosed(deadline: monotonicNanoseconds() + 1_000_000_000)
        FreeMemory.trim()
        trace?.record("released", generation: generations.current)
        whenReleased?()
    }

    /// Opens the device again for a request after `release`; nil when it cannot be had. The lock is held,
    /// and released while the device opens (within its own deadline).
    private func reopenDevice(sampleRate: Int) -> AudioWriter? {
        reopening = true
        let opened = lock.unlocked { () -> AudioWriter? in
            let capture = StderrCapture()
            let opened = try? makeSink(sampleRate)
            _ = capture?.finish()
            guard let sink = opened else { return nil }
            trace?.record("device", generation: generations.current)
            let writer = AudioWriter(sink: sink, generations: generations)
            do { try startThread { writer.run() } } catch {
                sink.close()
                return nil
            }
            return writer
        }
        reopening = false
        if opened != nil { isReleased = false }
        writer = opened
        lock.broadcast()
        return opened
    }

    /// Initialises the engine and opens the sink with fd 2 captured; publishes the outcome.
    ///
    /// A device is opened on a thread of its own while espeak-ng loads its voice, at the sample rate
    /// espeak-ng 1.51 always reports: ready at the later of the two, not after their sum.
    private func start() -> EspeakEngine? {
        let capture = StderrCapture()
        // An audio server that does not answer ends the start-up at its deadline, even while espeak-ng
        // still starts: its own audio probe in espeak_Initialize (pcaudiolib's) waits on the same server as
        // long as libpulse lets it. Other device failures wait for the engine, whose errors come first.
        let opening =
            opensSinkBeside
            ? SinkOpening(rate: EspeakEngine.usualSampleRate, makeSink: makeSink) { [self] error in
                if case .audioServerDidNotAnswer = error { publish(error) }
            } : nil
        let outcome: Result<(EspeakEngine, any AudioSink), SpeechError>
        do throws(SpeechError) {
            let engine: EspeakEngine
            do throws(SpeechError) {
                engine = try EspeakEngine(options: options, bufferMilliseconds: bufferMilliseconds)
            } catch {
                if let sink = try? opening?.wait().get() { sink.close() }
                throw error
            }
            trace?.record("engine", generation: 0)
            do throws(SpeechError) {
                var sink: any AudioSink
                if let opening { sink = try opening.wait().get() } else { sink = try makeSink(engine.sampleRate) }
                if opening != nil && engine.sampleRate != EspeakEngine.usualSampleRate {
                    sink.close()
                    sink = try makeSink(engine.sampleRate)
                }
                trace?.record("device", generation: 0)
                outcome = .success((engine, sink))
            } catch {
                engine.terminate()
                throw error
            }
        } catch {
            outcome = .failure(error)
        }
        let noise = capture?.finish() ?? ""
        switch outcome {
        case .success(let (engine, sink)):
            let writer = AudioWriter(sink: sink, generations: generations)
            do { try startThread { writer.run() } } catch {
                sink.close()
                engine.terminate()
                publish(error)
                return nil
            }
            let accepted = lock.withLock {
                guard !finishing, case .starting = readiness else { return false }
                self.writer = writer
                readiness = .ready(sampleRate: engine.sampleRate)
                lock.broadcast()
                return true
            }
            if accepted { return engine }
            engine.terminate()
            writer.close()
            return nil
        case .failure(var error):
            if case .noAudioDevice(let detail) = error {
                error = .noAudioDevice(Self.summary(detail: detail, noise: noise))
            }
            publish(error)
            return nil
        }
    }

    /// Speech cannot start: says why, unless the outcome is already known.
    private func publish(_ error: SpeechError) {
        lock.withLock {
            guard case .starting = readiness else { return }
            readiness = .failed(error)
            lock.broadcast()
        }
    }

    /// Synthesises `request` into the writer until it is superseded; a key echo's audio, when
    /// synthesised to its end, is returned to be kept.
    private func synthesize(_ request: Request, engine: EspeakEngine, writer: AudioWriter) -> [[Int16]]? {
        var trimmer = SilenceTrimmer()
        var heard: [[Int16]] = []
        var superseded = false
        let generations = self.generations
        let receiver = SynthesisReceiver { chunk in
            guard generations.current == request.generation else {
                superseded = true
                return false
            }
            let audible = trimmer.audible(in: chunk)
            if !audible.isEmpty {
                writer.enqueue(audible, generation: request.generation)
                if request.isEcho { heard.append(audible) }
            }
            return true
        }
        engine.synthesize(request.text, into: receiver)
        return request.isEcho && !superseded ? heard : nil
    }

    /// One line for the error's detail: the library's reason and its last line of stderr noise.
    private static func summary(detail: String, noise: String) -> String {
        let lastNoise = noise.split(whereSeparator: \.isNewline).last.map(String.init)
        return [detail, lastNoise].compactMap { $0 }.joined(separator: "; ")
    }
}
