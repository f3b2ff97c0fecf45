// Key -> first audio sample handed to the sink, and key -> superseded audio stopped, through the
// real espeak-ng backend. With PULSE_SERVER set (Benchmarks/run.sh starts a
// private null sink) the sink is the real device path of `--speech espeak`; without it, a sink
// that discards audio (the engine and the writer thread alone).
// Run: cd Benchmarks && swift package benchmark --target SpeechLatency
import Benchmark
import Glibc
import OTCPromptCore
import OTCPromptSpeech
import SpeechTiming

/// The figures, in microseconds, one value per key.
private let firstSample = BenchmarkMetric.custom("key to first sample (us)")
private let stopped = BenchmarkMetric.custom("key to stale audio stopped (us)")

/// One backend for every iteration, as in a session: a new key supersedes the previous digit.
private struct Speaker: @unchecked Sendable {
    let backend: EspeakSpeechBackend
    let sink: TimingSink
    let useDevice = getenv("PULSE_SERVER") != nil

    init() {
        let sink = TimingSink(nil)
        let useDevice = self.useDevice
        backend = EspeakSpeechBackend.start(options: SpeechOptions()) { rate throws(SpeechError) in
            if useDevice { sink.inner = try EspeakSpeechBackend.openDevice(sampleRate: rate) }
            return sink
        }
        self.sink = sink
        do { try backend.waitUntilReady() } catch { fatalError("speech: \(error)") }
    }
}

nonisolated(unsafe) private var speaker: Speaker?

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration.timeUnits = .microseconds
    let name = getenv("PULSE_SERVER") != nil ? "digit keys, PulseAudio null sink" : "digit keys, discarding sink"
    Benchmark(
        name,
        configuration: .init(
            metrics: [firstSample, stopped], warmupIterations: 3, maxDuration: .seconds(60),
            maxIterations: Int(getenv("OTC_BENCH_KEYS").flatMap { Int(String(cString: $0)) } ?? 200),
            thresholds: [
                firstSample: .init(absolute: [.p50: 5_000, .p99: 15_000]),
                stopped: .init(absolute: [.p50: 20_000]),
            ])
    ) { benchmark in
        guard let speaker else { return }
        for iteration in benchmark.scaledIterations {
            speaker.sink.arm()
            let key = now()
            speaker.backend.speak(Announcement(.digit, .characters([[String(iteration % 10)]])))
            guard let times = speaker.sink.waitForFirstWrite() else { fatalError("no audio within 2 s") }
            benchmark.measurement(firstSample, Int((times.firstWrite - key) * 1000))
            if let flushed = times.flushed { benchmark.measurement(stopped, Int((flushed - key) * 1000)) }
            // A typist's pace: the digit is still playing when the next key supersedes it.
            sleep(milliseconds: 80)
        }
    } setup: {
        speaker = Speaker()
    } teardown: {
        speaker?.backend.finish(timeout: .zero)
        speaker = nil
    }
}
