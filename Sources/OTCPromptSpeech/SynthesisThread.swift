/// The one thread that calls espeak-ng: initialises it, synthesises the newest announcement,
/// and hands its audio to the writer. Requests are posted without waiting: only the newest
/// unsynthesised one is kept, so a burst of keys never builds a backlog.
final class SynthesisThread: @unchecked Sendable {
    enum Readiness {
        case starting
        case ready(sampleRate: Int)
        case failed(SpeechError)
    }

    private struct Request {
        var text: String
        var generation: UInt64
    }

    let generations = GenerationCounter()
    private let options: SpeechOptions
    private let makeSink: AudioSinkFactory
    private let bufferMilliseconds: Int
    private let lock = ConditionLock()
    private var readiness = Readiness.starting
    private var pending: Request?
    private var finishing = false
    private var writer: AudioWriter?
    private let trace = SpeechTrace.shared

    init(options: SpeechOptions, bufferMilliseconds: Int, makeSink: @escaping AudioSinkFactory) {
        self.options = options
        self.bufferMilliseconds = bufferMilliseconds
        self.makeSink = makeSink
        startThread { [self] in run() }
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

    /// Supersedes whatever is being spoken with `text`. Never waits for audio.
    func speak(_ text: String) {
        let activeWriter: AudioWriter? = lock.withLock {
            guard !finishing else { return nil }
            pending = Request(text: text, generation: generations.next())
            lock.broadcast()
            return writer
        }
        trace?.record("requested", generation: generations.current)
        activeWriter?.wake()
    }

    /// Lets the newest announcement play to its end and closes the sink, waiting until
    /// `deadline`; after it, stale audio is cut so the sink still closes (and a WAV is finalised).
    func finish(deadline: UInt64) {
        let activeWriter: AudioWriter? = lock.withLock {
            if case .starting = readiness { readiness = .failed(.engineUnavailable("finished before ready")) }
            finishing = true
            lock.broadcast()
            return writer
        }
        guard let activeWriter else { return }
        if activeWriter.waitUntilClosed(deadline: deadline) { return }
        _ = generations.next()
        activeWriter.wake()
        _ = activeWriter.waitUntilClosed(deadline: monotonicNanoseconds() + 250_000_000)
    }

    private func run() {
        guard let (engine, writer) = start() else { return }
        lock.withLock {
            while true {
                if let request = pending {
                    pending = nil
                    lock.unlocked {
                        trace?.record("woke", generation: request.generation)
                        writer.interruptDevice()
                        synthesize(request, engine: engine, writer: writer)
                    }
                    continue
                }
                if finishing { break }
                lock.wait()
            }
        }
        engine.terminate()
        writer.close()
    }

    /// Initialises the engine and opens the sink with fd 2 captured; publishes the outcome.
    private func start() -> (EspeakEngine, AudioWriter)? {
        let capture = StderrCapture()
        let outcome: Result<(EspeakEngine, any AudioSink), SpeechError>
        do throws(SpeechError) {
            let engine = try EspeakEngine(options: options, bufferMilliseconds: bufferMilliseconds)
            do throws(SpeechError) {
                outcome = .success((engine, try makeSink(engine.sampleRate)))
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
            startThread { writer.run() }
            let accepted = lock.withLock {
                guard !finishing else { return false }
                self.writer = writer
                readiness = .ready(sampleRate: engine.sampleRate)
                lock.broadcast()
                return true
            }
            if accepted { return (engine, writer) }
            engine.terminate()
            writer.close()
            return nil
        case .failure(var error):
            if case .noAudioDevice(let detail) = error {
                error = .noAudioDevice(Self.summary(detail: detail, noise: noise))
            }
            lock.withLock {
                readiness = .failed(error)
                lock.broadcast()
            }
            return nil
        }
    }

    private func synthesize(_ request: Request, engine: EspeakEngine, writer: AudioWriter) {
        var trimmer = SilenceTrimmer()
        let generations = self.generations
        let receiver = SynthesisReceiver { chunk in
            guard generations.current == request.generation else { return false }
            let audible = trimmer.audible(in: chunk)
            if !audible.isEmpty { writer.enqueue(audible, generation: request.generation) }
            return true
        }
        engine.synthesize(request.text, into: receiver)
    }

    /// One line for the error's detail: the library's reason and its last line of stderr noise.
    private static func summary(detail: String, noise: String) -> String {
        let lastNoise = noise.split(whereSeparator: \.isNewline).last.map(String.init)
        return [detail, lastNoise].compactMap { $0 }.joined(separator: "; ")
    }
}
