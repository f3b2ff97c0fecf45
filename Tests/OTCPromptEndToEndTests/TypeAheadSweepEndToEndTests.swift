import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// The timing sweep on the built binary: "yes⏎" (or "sim⏎") typed key by key, starting 0 to 1000 ms
/// after the question appeared on the screen, as ssh-agent's `SSH_ASKPASS_PROMPT=confirm` asks it.
/// A word begun within the grace never answers: its line is dropped whole and said so, and the word
/// typed again then answers. The screen is seen a little after the grace started, never before, so
/// a start well inside the grace must never answer and one past it must.
// Synchronous: its keys are timed from the moment the question appears, so its waits wake on the question at
// once (poll on the terminal) rather than at a look that a busy pool may delay. Each test holds a thread of the
// runner, so it takes its turn with the other synchronous tests (.waitsSynchronously). Its starts are timed from the
// moment the screen is seen, which other programs' load could put 150 ms after the grace began: it runs alone.
@Suite(.runsAlone, .serialized)
struct TypeAheadSweepEndToEndTests {
    static let question = "Allow use of key /root/.ssh/id_ed25519?"

    @Test(
        .waitsSynchronously, .timeLimit(.minutes(5)), arguments: [("C.UTF-8", "yes", 50), ("pt_BR.UTF-8", "sim", 100)])
    func aWordBegunWithinTheGraceNeverAnswers(locale: String, word: String, step: Int) throws {
        // Every step through the grace (300 ms) and the uncertain span after it up to 500 ms; past that, where every
        // start must answer alike, a few samples up to a second.
        for start in Array(stride(from: 0, through: 500, by: step)) + [750, 1000] {
            let run = try PromptRun(
                ["--askpass", Self.question],
                environment: PromptRun.environment(["SSH_ASKPASS_PROMPT": "confirm", "LANG": locale]),
                ready: "Allow use")
            usleep(useconds_t(start * 1000))
            for (index, key) in (word + "\r").enumerated() {
                // A pause longer than the paste join's window after "ye": the rest once escaped the grace.
                if index > 0 { usleep(useconds_t([0, 40, 130, 60][index] * 1000)) }
                run.type(String(key))
            }
            // One of two events ends the wait: the prompt exits (answered) or says the line was dropped.
            _ = run.process.wait(deadline: .seconds(20)) { $0.hasExited || run.saidTypedTooEarly }
            let answered = run.exit(deadline: .zero)
            if start <= 150 { #expect(answered == nil, "\(word) begun \(start) ms after the question answered it") }
            if start >= 450 { #expect(answered == .exited(0), "\(word) begun \(start) ms after the question") }
            if answered == nil {
                #expect(run.saidTypedTooEarly, "at \(start) ms the dropped line is said: \(run.log)")
                run.process.waitPastThePasteJoin()
                run.type(word + "\r")
                #expect(run.exit() == .exited(0), "the word typed again answers (\(start) ms)")
            }
            #expect(run.process.standardOutput == "yes\n" || run.process.standardOutput == "", "\(start) ms")
        }
    }

    /// Tab, Up, Ctrl-R, Ctrl-T, Ctrl-L pressed as the question appears, "yes⏎" half a second later:
    /// once approved, as those keys type no letter. Now any key begins a leftover line; a focus
    /// report the terminal sends on its own does not, and a Tab inside a word typed later changes nothing.
    @Test(.waitsSynchronously, .timeLimit(.minutes(5)))
    func aKeyThatTypesNoLetterWithinTheGraceBeginsALeftoverLine() throws {
        for key in ["\t", "\u{1B}[A", "\u{12}", "\u{14}", "\u{0C}"] {
            let run = try PromptRun(
                ["--askpass", Self.question], environment: PromptRun.environment(["SSH_ASKPASS_PROMPT": "confirm"]),
                ready: "Allow use")
            run.type(key)
            run.waitPastTheGrace()
            run.type("yes\r")
            // A barrier: the dropped line's Enter is said to have been typed too early, and answered nothing.
            let toldTooEarly = run.process.wait(deadline: .seconds(10)) { _ in
                run.log.contains { $0.event == "help" && $0.text.hasPrefix("Typed too early") }
            }
            #expect(toldTooEarly, "\(key.debugDescription): \(run.log)")
            #expect(!run.process.hasExited, "\(key.debugDescription) then yes⏎ answered")
            run.type("yes\r")
            #expect(run.exit() == .exited(0), "the word typed again answers")
        }
        let focus = try PromptRun(
            ["--askpass", Self.question], environment: PromptRun.environment(["SSH_ASKPASS_PROMPT": "confirm"]),
            ready: "Allow use")
        focus.type("\u{1B}[I")
        focus.waitPastTheGrace()
        focus.type("ye\ts\r")
        #expect(focus.exit() == .exited(0), "a focus report is no key; a Tab in a word changes nothing")
        #expect(focus.process.standardOutput == "yes\n")
    }
}

extension PromptRun {
    /// Whether the prompt has said that a line typed within the grace was dropped (English or Portuguese).
    fileprivate var saidTypedTooEarly: Bool {
        logEntries().contains {
            $0.event == "help" && ($0.text.hasPrefix("Typed too early") || $0.text.hasPrefix("Digitado cedo demais"))
        }
    }
}
