import OTCPromptTestSupport

@testable import OTCPromptCore

/// A seeded world around `TouchWatchModel`: pam_u2f's requests seen through its pending file, the detector's
/// socket or both, with their signals a little apart; the detector's bytes split and merged at random; the detector
/// restarted, inotify's queue lost, and the watcher's wake-ups late. It keeps its own truth of which signals say
/// the key waits, from what it sent, and checks the model's effects against it (`TouchInvariants`).
struct TouchWorld {
    /// What the world does at a moment, as the watcher's door would see it.
    enum Happening {
        case open, close
        case detector(TouchDetectorStream.Message)
        case restart

        var isDetector: Bool { if case .detector = self { true } else { false } }
    }

    let seed: UInt64
    let saysRelease: Bool
    private(set) var pattern = ""
    private var random: SeededRandom
    /// The happenings by time in milliseconds, in the order they occur.
    private var timeline: [(time: Int, what: Happening)] = []
    /// Each event given and its effects, for a failure's message: kept as values and told only on a failure, since
    /// describing every event of thousands of cases would cost more than running them.
    private(set) var log: [(time: Int, event: TouchWatchModel.Event, effects: [TouchWatchModel.Effect])] = []

    /// The last `count` events of the log, one a line.
    func story(last count: Int) -> String {
        log.suffix(count).map { "\($0.time) ms: \($0.event) -> \($0.effects)" }.joined(separator: "\n")
    }

    init(seed: UInt64) {
        self.seed = seed
        random = SeededRandom(seed: seed)
        saysRelease = random.chance(50)
        let patterns = ["file only", "detector only", "both", "both, restarts", "flapping", "gpg and u2f"]
        pattern = patterns[random.below(patterns.count)]
        var time = random.below(50)
        for _ in 0..<(1 + random.below(8)) {
            let length = pattern == "flapping" ? random.below(300) + 1 : random.below(4000) + 1
            let usesFile = pattern != "detector only" && pattern != "gpg and u2f"
            let usesDetector = pattern != "file only" && pattern != "flapping"
            // Each signal ends after it begins: one descriptor's close after its open, the detector's 0 after its 1.
            if usesFile {
                let open = time + random.below(40)
                timeline.append((open, .open))
                timeline.append((open + length + random.below(40), .close))
            }
            if usesDetector {
                let kind: TouchDetectorStream.Kind = pattern == "gpg and u2f" && random.chance(50) ? .gpg : .u2f
                let begins = time + random.below(40)
                timeline.append((begins, .detector(.init(kind, waiting: true))))
                timeline.append((begins + length + random.below(200), .detector(.init(kind, waiting: false))))
            }
            if pattern == "both, restarts" && random.chance(40) {
                timeline.append((time + random.below(length + 200), .restart))
            }
            time += length + (pattern == "flapping" ? random.below(900) : random.below(3000))
        }
        // Stable: what happens at the same moment keeps the order it was made in.
        timeline = timeline.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(
            \.element)
    }

    /// Runs the timeline through the model, its detector bytes cut at random; the first broken rule, or nil.
    mutating func run() -> String? {
        var model = TouchWatchModel(saysRelease: saysRelease)
        var invariants = TouchInvariants(saysRelease: saysRelease)
        var wake: Int?
        var unsent: [UInt8] = []
        var lastTime = 0
        var sentBytes = 0
        var ends: [(end: Int, message: TouchDetectorStream.Message)] = []
        /// The first `count` unsent bytes in one read; the truth changes with each message they complete.
        func deliver(_ count: Int, at time: Int) -> String? {
            guard count > 0 else { return nil }
            let piece = Array(unsent.prefix(count))
            unsent.removeFirst(count)
            sentBytes += count
            while let first = ends.first, first.end <= sentBytes {
                ends.removeFirst()
                if first.message.waiting {
                    invariants.truth.detector.insert(first.message.kind)
                } else {
                    invariants.truth.detector.remove(first.message.kind)
                }
            }
            return give(.detectorBytes(piece), at: time)
        }
        func give(_ event: TouchWatchModel.Event, at time: Int) -> String? {
            let effects = model.update(event, at: .milliseconds(time))
            log.append((time, event, effects))
            for case .wake(let at) in effects {
                wake = Int(at.components.seconds * 1000) + Int(at.components.attoseconds / 1_000_000_000_000_000)
            }
            return invariants.check(effects, at: time)
        }
        for (time, what) in timeline {
            // A wake-up asked for comes at its time, or late, never early.
            if let due = wake, due <= time {
                wake = nil
                let late = due + random.below(300)
                if let failure = give(.clock(.milliseconds(min(late, time))), at: max(lastTime, min(late, time))) {
                    return failure
                }
            }
            lastTime = time
            switch what {
            case .open:
                invariants.truth.openFiles += 1
                if let failure = give(.pendingFileOpened, at: time) { return failure }
            case .close:
                invariants.truth.openFiles -= 1
                if let failure = give(.pendingFileClosed, at: time) { return failure }
            case .detector(let message):
                // The bytes leave in pieces: some now, the rest in a second read, or with the next message when
                // that comes within 50 ms (one read then holds both).
                unsent += message.bytes
                ends.append((sentBytes + unsent.count, message))
                let cut = random.chance(50) ? unsent.count : random.below(unsent.count + 1)
                if let failure = deliver(cut, at: time) { return failure }
                let nextIsClose = timeline.contains { $0.time > time && $0.time - time < 50 && $0.what.isDetector }
                if !unsent.isEmpty && !(nextIsClose && random.chance(60)) {
                    if let failure = deliver(unsent.count, at: time) { return failure }
                }
            case .restart:
                sentBytes += unsent.count
                unsent = []
                ends.removeAll()
                invariants.truth.detector.removeAll()
                if let failure = give(.detectorLost, at: time) { return failure }
                if let failure = give(.detectorConnected, at: time + 1) { return failure }
            }
        }
        if let failure = deliver(unsent.count, at: lastTime) { return failure }
        if let due = wake, let failure = give(.clock(.milliseconds(due)), at: max(due, lastTime)) { return failure }
        return invariants.finish(at: lastTime + 100_000)
    }
}
