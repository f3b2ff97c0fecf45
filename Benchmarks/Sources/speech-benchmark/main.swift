// The speech figures through the real backend (see docs/performance.md).
// Usage: speech-benchmark [--device] [--repetitions N]
//        speech-benchmark --audio-seconds < LINES
//   --device: play through pcaudiolib (run with a PulseAudio null sink: Benchmarks/run.sh).
//   --audio-seconds: for each line "LANG<TAB>TEXT" on stdin, the seconds of audio the prompt's own voice makes of
//     TEXT said as an announcement (`Announcement.said`: identifiers spelled), espeak-ng's leading and trailing
//     silence trimmed, at the default rate; one figure a line (Benchmarks/openings.py).
import Glibc
import OTCPromptCore
import OTCPromptSpeech
import SpeechTiming

let arguments = CommandLine.arguments
if arguments.contains("--audio-seconds") {
    while let line = readLine() {
        let fields = line.split(separator: "\t", maxSplits: 1).map(String.init)
        guard fields.count == 2, let language = Language(rawValue: fields[0]) else {
            print("error: not LANG<TAB>TEXT: \(line)")
            exit(1)
        }
        print(f(audioSeconds(Announcement(.prompt, fields[1]).said, language)))
        fflush(nil)
    }
    exit(0)
}
let useDevice = arguments.contains("--device")
let repetitions = arguments.firstIndex(of: "--repetitions").flatMap { Int(arguments[$0 + 1]) } ?? 100

func makeBackend(_ options: SpeechOptions = SpeechOptions(), sink: TimingSink? = nil) -> (
    EspeakSpeechBackend, TimingSink
) {
    let timing = sink ?? TimingSink(nil)
    let backend = EspeakSpeechBackend.start(options: options) { rate throws(SpeechError) in
        if useDevice { timing.inner = try EspeakSpeechBackend.openDevice(sampleRate: rate) }
        return timing
    }
    do { try backend.waitUntilReady() } catch {
        print("error: \(error)")
        exit(1)
    }
    return (backend, timing)
}

print(
    "speech-benchmark: output \(useDevice ? "default device (PulseAudio stream, else pcaudiolib)" : "discarding sink (engine and writer only)"), \(repetitions) repetitions"
)

// 1. Start-up: start() to ready.
var startups: [Double] = []
for _ in 0..<10 {
    let start = now()
    let (backend, _) = makeBackend()
    startups.append(now() - start)
    backend.finish(timeout: .zero)
}
print(Summary(startups).line("start-up (init + voice + device open)", target: "(the latency targets: see prompt-ready figure)"))

// 2 and 3. Keys 80 ms apart, each superseding the last: key -> first sample, key -> stale audio flushed.
do {
    let (backend, sink) = makeBackend()
    var firstSample: [Double] = []
    var stopped: [Double] = []
    for index in 0..<repetitions {
        sink.arm()
        let key = now()
        backend.speak(Announcement(.digit, .characters([[String(index % 10)]])))
        guard let times = sink.waitForFirstWrite() else {
            print("error: no audio within 2 s")
            exit(1)
        }
        firstSample.append(times.firstWrite - key)
        if arguments.contains("--diagnose"), times.firstWrite - key > 4 {
            sleep(milliseconds: 20)
            print("slow key \(f(times.firstWrite - key)) ms: \(sink.callLog(since: key))")
        }
        if let flushed = times.flushed, index > 0 { stopped.append(flushed - key) }
        sleep(milliseconds: 80)
    }
    backend.finish(timeout: .seconds(3))
    print(
        Summary(firstSample).line("key -> first audio sample handed to the sink", target: "median < 5 ms, p99 < 15 ms"))
    print(Summary(stopped).line("key -> superseded audio stopped (flush returned)", target: "median < 20 ms"))
}

// 4. Burst: six digits 50 ms apart; speech after the last key vs one digit alone (wall time to drained).
func speechAfterLastKey(digits: [String]) -> Double {
    let (backend, _) = makeBackend()
    var last = now()
    for (index, digit) in digits.enumerated() {
        if index > 0 { sleep(milliseconds: 50) }
        last = now()
        backend.speak(Announcement(.digit, .characters([[digit]])))
    }
    backend.finish(timeout: .seconds(5))
    return now() - last
}
var burst: [Double] = []
var single: [Double] = []
for _ in 0..<10 {
    burst.append(speechAfterLastKey(digits: ["9", "8", "5", "3", "9", "1"]))
    single.append(speechAfterLastKey(digits: ["1"]))
}
print(Summary(single).line("one digit alone: key -> its speech ended (drained)", target: "reference"))
print(Summary(burst).line("six digits 50 ms apart: last key -> speech ended", target: "<= one digit + 100 ms"))

// Final announcement: speak the readback, then finish (plays to its end); wall time from speak.
do {
    var finishes: [Double] = []
    for _ in 0..<3 {
        let (backend, _) = makeBackend()
        let start = now()
        backend.speak(Announcement(.complete, readBack("985391", .en)))
        backend.finish(timeout: .seconds(8))
        finishes.append(now() - start)
    }
    print(
        Summary(finishes).line(
            "final readback: speak -> finish returned (played out)", target: "audio length + device latency, <= timeout"
        ))
}

/// What Ctrl-R says for a full `code`, taken from the core's own wording so it never goes stale.
func readBack(_ code: String, _ language: Language, charset: CodeCharset = .digits) -> Utterance {
    var field = CodeField(length: code.count, charset: charset)
    field.append(contentsOf: code)
    return Wording(language: language).readBack(field: field, style: Wording.Style())
}

// 5. Listening cost: seconds of audio of the readback (trimmed of espeak-ng's leading/trailing silence).
func audioSeconds(_ text: Utterance, _ language: Language) -> Double {
    let timing = TimingSink(nil)
    let backend = EspeakSpeechBackend.start(options: SpeechOptions(language: language)) { _ in timing }
    try? backend.waitUntilReady()
    backend.speak(Announcement(.readback, text))
    backend.finish(timeout: .seconds(10))
    return Double(timing.totalSamples) / Double(backend.sampleRate ?? 22050)
}
for (text, language) in [
    (readBack("985391", .en), Language.en), (readBack("985391", .pt), .pt),
    (readBack("G1A2BC", .en, charset: .alnum), .en),
] {
    let seconds = f(audioSeconds(text, language))
    print("readback audio (\(language.rawValue), \"\(text.text)\"): \(seconds) s  target <= 3 s")
}
exit(0)
