import OTCPromptBraille
import OTCPromptCore
import OTCPromptHost
import OTCPromptLoop
import OTCPromptSettings
import OTCPromptSpeech
import OTCPromptTerminal

/// Says one of the touch watcher's cues through the outputs every prompt has (the speech log, the voice `--speech`
/// chooses where the person is, with its one switch to text lines, the terminal's line, the braille display), each
/// opened for the cue and let go after it: idle, the watcher holds no audio device and no connection.
struct TouchCueSpeaker {
    let context: RunContext
    /// Where lines are written: the terminal, or stdout (a user unit's journal) when there is none.
    let lines: Terminal
    /// Where the person is: the terminal's login session, or unknown without one.
    let location: SessionLocation
    /// When the watcher started: the speech log's times count from it.
    let started: MonotonicInstant
    /// The braille display while a wait is on: the cue stays there until the wait ends (`closeBraille`).
    private(set) var braille: BrailleOutput?

    init(context: RunContext, lines: Terminal, location: SessionLocation, started: MonotonicInstant) {
        self.context = context
        self.started = started
        self.lines = lines
        self.location = location
    }

    /// The cue being heard: its voice and its outputs, open until it has been heard (or `PromptProgram.finalSpeechLimit`
    /// has passed, or the next cue supersedes it). `voiceStarted` is false while its voice starts (what is said is
    /// held meanwhile), and `since` is when it started. The voice starts on its own thread and the loop wakes on its
    /// descriptor: the watcher goes on reading meanwhile, so what happens during a cue, its voice's start-up included,
    /// keeps its own time.
    private var current: (speech: SpeechSetup, outputs: SessionOutputs, voiceStarted: Bool, since: MonotonicInstant)?

    /// Whether a cue is being heard: the loop then wakes for its voice's news and its end.
    var isSpeaking: Bool { current != nil }

    /// The descriptors to wake on while a cue is heard: its voice's start-up until it has ended, then the voice's own
    /// (speech-dispatcher's replies).
    var descriptors: [Int32] {
        guard let current else { return [] }
        if !current.voiceStarted, let startup = current.speech.startup { return [startup.descriptor] }
        return current.outputs.descriptors
    }

    /// Says `announcement` (a tone in its place when `tone`), superseding a cue still heard. Returns at once: a
    /// voice still starting holds the words, and `follow` lets them go when it has started.
    mutating func say(_ announcement: Announcement, tone: Bool) {
        finishCurrent()
        let start = started
        let settings = context.settings
        if braille == nil {
            braille = BrailleOutput.start(
                settings.value(Settings.braille), location: location, environment: context.environment,
                terminal: lines.input)
        }
        braille?.present(SessionView(label: announcement.text, field: nil))
        if tone { return playTone(announcement, start: start) }
        let speech: SpeechSetup
        do {
            speech = try SpeechSetup(
                choice: settings.value(Settings.speech), voice: context.voice, voiceLocation: nil,
                audioFile: settings[Settings.audioFile], terminal: lines, location: location,
                environment: context.environment, logPath: settings[Settings.speechLog], memory: context.memory(),
                speculates: false, elapsed: { MonotonicInstant.now - start })
        } catch {
            lines.writeLine("otc-prompt: \(error)")
            return
        }
        // With text lines as the voice, the line is the voice's; otherwise it is shown beside it.
        if !speech.isText { lines.writeLine(announcement.text) }
        let place = OutputPlace(
            terminal: lines, location: location, environment: context.environment, appearance: Appearance(settings),
            style: nil, capabilities: TerminalCapabilities(environment: context.environment), speech: speech)
        let outputs = PromptOutputs.choose(at: place, among: PromptOutputs.announcing)
        outputs.say(announcement)
        current = (speech, outputs, speech.startup == nil, .now)
    }

    /// Acts on the voice's start-up and news, and lets the cue go once it has been heard or its time is up.
    mutating func follow() {
        guard let cue = current else { return }
        if !cue.voiceStarted, let startup = cue.speech.startup {
            // As a prompt's end waits for its voice (`SpeechSetup.finish`): what was held is said once it has
            // started; past `startupLimit` the cue is late, and its line (written already) is all there is.
            guard let outcome = startup.takeOutcome() else {
                if MonotonicInstant.now - cue.since >= Self.startupLimit { finishCurrent() }
                return
            }
            if case .started(let started) = outcome {
                for notice in started.notices { lines.writeLine(notice) }
                started.held.release(to: started.backend) { nil }
            }
            current?.voiceStarted = true
            current?.since = .now
        }
        guard let cue = current else { return }
        cue.outputs.takeNews()
        if !cue.outputs.isSpeaking || MonotonicInstant.now - cue.since >= PromptProgram.finalSpeechLimit {
            finishCurrent()
        }
    }

    /// How long the loop may sleep before `follow` is due again while a cue is heard: a voice says when it ends
    /// only when asked (espeak-ng), so it is asked this often, and only then.
    static let followInterval: Duration = .milliseconds(20)

    /// The cue's voice and outputs let go: nothing of it is held once it has been heard.
    mutating func finishCurrent() {
        guard let cue = current else { return }
        current = nil
        if !cue.voiceStarted { cue.speech.startup?.abandon() }
        cue.speech.voice.finish(timeout: .zero)
        cue.speech.log?.voiceDone()
        cue.outputs.close()
    }

    /// The wait ended: the display goes back to what it showed before.
    mutating func closeBraille() {
        braille?.close()
        braille = nil
    }

    /// The longest a voice may take to start for a cue: the cue is late past it, and said as a line instead.
    static let startupLimit: Duration = .seconds(2)

    /// The tone on the user's audio device, where a voice would be used; a line where none would (text, none), or
    /// where no device answers. The line is written and logged either way.
    private func playTone(_ announcement: Announcement, start: MonotonicInstant) {
        let settings = context.settings
        let route = SpeechRouteProbes.route(
            for: settings.value(Settings.speech), environment: context.environment, terminal: .located(location))
        lines.writeLine(announcement.text)
        if let path = settings[Settings.speechLog], let file = try? SpeechLogFile(path: path) {
            let log = SpeechLogWriter(
                file: file, note: "tone: \(route.kind.rawValue)", elapsed: { MonotonicInstant.now - start },
                failed: { _ in })
            log.say(announcement)
            log.voiceDone()
        }
        guard route.kind == .espeak || route.kind == .speechd else { return }
        let rate = 22_050
        let samples = TouchCue.toneSamples(sampleRate: rate)
        let sink: (any AudioSink)? =
            (try? PulseAudioSink(sampleRate: rate)) ?? (try? PCAudioSink(sampleRate: rate))
        guard let sink else { return }
        samples.withUnsafeBufferPointer { sink.write($0) }
        sink.drain()
        sink.close()
    }
}
