/// What the touch watcher says and shows for each of its model's effects (`TouchWatchModel.Effect`).
public enum TouchCue: String, CaseIterable, Sendable {
    /// Said in words: "Touch your security key."
    case words
    /// A short tone in place of the words, for a user who finds words too slow; the words are still shown (and
    /// written as a line where there is no voice).
    case tone

    /// The announcement of a wait that began: an opening, so that speech-dispatcher says it after the screen reader's
    /// sentence, never over it, and gives way to its next message (`SpeechDispatcherBackend`'s opening priority).
    public static func waiting(_ wording: Wording) -> Announcement {
        Announcement(.prompt, wording.touchSecurityKey)
    }

    /// The announcement of a wait that ended, when the user asked to hear it: "Done."
    public static func released(_ wording: Wording) -> Announcement {
        Announcement(.prompt, wording.touchWaitDone)
    }

    /// The tone's samples at `sampleRate`: two short rising notes (660 Hz, then 880 Hz), each faded in and out so
    /// that it does not click, 0.25 s in all.
    public static func toneSamples(sampleRate: Int) -> [Int16] {
        var samples: [Int16] = []
        for frequency in [660.0, 880.0] {
            let count = sampleRate / 10
            let fade = sampleRate / 200
            for index in 0..<count {
                let edge = min(index, count - 1 - index)
                let envelope = edge < fade ? Double(edge) / Double(fade) : 1
                let phase = 2 * Double.pi * frequency * Double(index) / Double(sampleRate)
                samples.append(Int16(envelope * 0.4 * Double(Int16.max) * sine(phase)))
            }
            samples += [Int16](repeating: 0, count: sampleRate / 40)
        }
        return samples
    }

    /// sin(x) without Foundation or Glibc in the core: a Taylor series on x reduced to [-π, π].
    static func sine(_ x: Double) -> Double {
        var x = x.truncatingRemainder(dividingBy: 2 * .pi)
        if x > .pi { x -= 2 * .pi }
        if x < -.pi { x += 2 * .pi }
        var term = x
        var sum = x
        for n in 1...9 {
            term *= -x * x / Double(2 * n * (2 * n + 1))
            sum += term
        }
        return sum
    }
}

extension Wording {
    /// The touch watcher's "Done." once a key no longer waits (`TouchCue.released`).
    public var touchWaitDone: String { language.catalog.text("touchWatch.done") }
}
