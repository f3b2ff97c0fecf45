// How long espeak_Cancel blocks in espeak-ng's own PLAYBACK mode while it is speaking: the
// anchor the backend's interruption latency is compared with. Prints one duration (ms) a line.
import CEspeakAnchor
import Glibc

func milliseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000
}

let repetitions = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 5 : 5
guard espeak_Initialize(AUDIO_OUTPUT_PLAYBACK, 0, nil, espeakINITIALIZE_DONT_EXIT) > 0,
    espeak_SetVoiceByName("en") == EE_OK
else {
    print("error: espeak-ng playback mode could not start (no audio device?)")
    exit(1)
}
let text = "9 8 5, 3 9 1, 6 of 6. Verification code, empty, 6-digit code."
for _ in 0..<repetitions {
    _ = text.withCString { espeak_Synth($0, strlen($0) + 1, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), nil, nil) }
    usleep(300_000)
    let start = milliseconds()
    espeak_Cancel()
    print((milliseconds() - start) * 1000 / 1000)
}
exit(0)
