import Glibc
import OTCPromptCore
import OTCPromptHost
import OTCPromptSettings
import OTCPromptTerminal

/// The touch watcher's loop: what `TouchSignalWatch` reads, given to `TouchWatchModel`, and its effects carried
/// out by `TouchCueSpeaker`. Nothing here decides when to speak; the model does.
struct TouchWatchProgram {
    let context: RunContext

    func run() -> Int32 {
        let signals: SignalWatcher
        do { signals = try SignalWatcher(signals: Self.signals) } catch {
            StandardError.writeLine("otc-prompt: \(error)")
            return ExitStatus.usage
        }
        // The terminal it was started in, as it is (nothing is read from it); without one, stdout.
        let terminal = try? Terminal.open(signalWatcher: signals)
        let lines = terminal ?? Terminal(input: STDIN_FILENO, output: STDOUT_FILENO, signalWatcher: signals)
        let location = LoginSession.locate(descriptor: terminal?.input)
        guard let directory = context.environment["XDG_RUNTIME_DIR"], directory.hasPrefix("/") else {
            lines.writeLine("otc-prompt: --touch-watch needs XDG_RUNTIME_DIR, where pam_u2f and the detector signal")
            return ExitStatus.usage
        }
        let watch: TouchSignalWatch
        do { watch = try TouchSignalWatch(directory: directory) } catch {
            lines.writeLine("otc-prompt: --touch-watch: \(error)")
            return ExitStatus.usage
        }
        lines.writeLine("otc-prompt: \(Self.watching(directory))")
        let start = MonotonicInstant.now
        var speaker = TouchCueSpeaker(context: context, lines: lines, location: location, started: start)
        var model = TouchWatchModel(saysRelease: context.settings.value(Settings.touchSaysDone))
        let tone = context.settings.value(Settings.touchCue) == .tone
        let wording = Wording(language: context.language)
        var wake: Duration?
        var refusals: Set<String> = []

        func carryOut(_ effects: [TouchWatchModel.Effect]) {
            for effect in effects {
                switch effect {
                case .cue: speaker.say(TouchCue.waiting(wording), tone: tone)
                case .released: speaker.say(TouchCue.released(wording), tone: false)
                case .wake(let at): wake = at
                }
            }
            if !model.isWaiting { speaker.closeBraille() }
        }

        while true {
            var signal: Int32?
            var timeout = wake.map { $0 - (MonotonicInstant.now - start) }
            if speaker.isSpeaking {
                timeout = min(timeout ?? TouchCueSpeaker.followInterval, TouchCueSpeaker.followInterval)
            }
            defer { speaker.follow() }
            switch watch.wait(signals: signals.descriptor, timeout: timeout, also: speaker.descriptors) {
            case .signal: signal = signals.takePendingSignal()
            case .timedOut:
                let now = MonotonicInstant.now - start
                guard let due = wake, now >= due else { continue }
                wake = nil
                carryOut(model.update(.clock(now), at: now))
            case .happened:
                for happening in watch.happenings() {
                    let events = Self.events(happening)
                    guard !events.isEmpty else {
                        if case .refused(let why) = happening, refusals.insert(why).inserted {
                            lines.writeLine("otc-prompt: not believed: \(why)")
                        }
                        if happening == .directoryGone {
                            lines.writeLine("otc-prompt: \(directory) is gone: the session has ended")
                            speaker.finishCurrent()
                            speaker.closeBraille()
                            return ExitStatus.terminalClosed
                        }
                        continue
                    }
                    let now = MonotonicInstant.now - start
                    for event in events { carryOut(model.update(event, at: now)) }
                }
            }
            guard let signal else { continue }
            switch signal {
            case SIGTSTP: signals.stopProcess()
            case SIGCONT: continue
            default:
                speaker.finishCurrent()
                speaker.closeBraille()
                terminal?.restore()
                signals.reraise(signal)
            }
        }
    }

    /// The signals that end it (and Ctrl-Z's, which stops it as any job): its terminal is never raw, but a signal
    /// must still close the braille display's connection before the process ends.
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGTSTP, SIGCONT]

    /// The model's events for what the door read; empty for what it does not decide on.
    static func events(_ happening: TouchSignalWatch.Happening) -> [TouchWatchModel.Event] {
        switch happening {
        case .pendingFileOpened: [.pendingFileOpened]
        // pam_u2f made the file by opening it, an open the watch on the file came too late for; and its close may
        // have come before the watch too. So a wait that began and ended at once: cued, never held open forever by
        // a close never seen (a later close finds no open and counts for nothing).
        case .pendingFileCreated: [.pendingFileOpened, .pendingFileClosed]
        case .pendingFileClosed: [.pendingFileClosed]
        case .pendingFileForgotten: [.pendingFileForgotten]
        case .detectorConnected: [.detectorConnected]
        case .detectorBytes(let bytes): [.detectorBytes(bytes)]
        case .detectorLost: [.detectorLost]
        case .refused, .directoryGone: []
        }
    }

    /// What is watched, for the start's line and `--doctor`.
    static func watching(_ directory: String) -> String {
        "touch cues watch pam_u2f's \(directory)/\(TouchSignalWatch.pendingFileName) and the touch detector's "
            + "\(directory)/\(TouchSignalWatch.detectorSocketName)"
    }
}
