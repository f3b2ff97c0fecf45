import OTCPromptCore
import OTCPromptLoop
import OTCPromptTestSupport
import Testing

/// The timing sweep that once approved an ssh-agent signature about one trial in four: "yes⏎" typed
/// as the question appears, its first keys dropped by the grace and the rest ("s⏎") taken as "sim".
/// Every start from 0 to 1000 ms after the question, 10 ms apart, at human gaps between keys and
/// with every key in one read: only a word begun after the grace answers.
@Suite struct TypeAheadSweepTests {
    /// Gaps between the keys of "yes⏎": steady fast and slow typists, uneven ones; empty: one read.
    static let rhythms: [[Int]] = [[30, 30, 30], [120, 120, 120], [60, 30, 120], [120, 45, 90], []]

    static func steps(_ line: String, startingAfter start: Int, gaps: [Int]) -> [ScriptedTerminal.Step] {
        guard !gaps.isEmpty else { return [.bytes(line, after: .milliseconds(start))] }
        return line.enumerated().map { index, key in
            .bytes(String(key), after: .milliseconds(index == 0 ? start : gaps[(index - 1) % gaps.count]))
        }
    }

    @Test(arguments: Language.allCases, rhythms)
    func aWordBegunWithinTheGraceNeverAnswers(language: Language, gaps: [Int]) {
        let word = Wording(language: language).answer(true)
        for start in stride(from: 0, through: 1000, by: 10) {
            let first = Self.steps(word + "\r", startingAfter: start, gaps: gaps)
            // The user, told the line was ignored, types the word again a second later.
            let again = Self.steps(word + "\r", startingAfter: 1000, gaps: [80])
            let (outcome, terminal, spoken) = TypeAheadRun.run(
                .discarded(grace: ConfirmSession.grace), first + again + [.timeout], language: language)
            let answeredFirst = terminal.deliveredAt.count == first.count
            #expect(
                answeredFirst == (Duration.milliseconds(start) >= ConfirmSession.grace),
                "\(word) begun \(start) ms after the question, gaps \(gaps)")
            #expect(outcome == .confirmed(true), "\(word) at \(start) ms, gaps \(gaps): the next line counts")
            let ignored = spoken.contains { $0.text == Wording(language: language).leftoverIgnored }
            #expect(
                ignored == (Duration.milliseconds(start) < ConfirmSession.grace),
                "at \(start) ms the dropped line is said")
        }
    }

    /// Keys that type no letter (Tab, Up, Ctrl-R, Ctrl-T, Ctrl-L) pressed at each start, "yes⏎" half
    /// a second later: the word answers only when that first key came after the grace.
    @Test(arguments: ["\t", "\u{1B}[A", "\u{12}", "\u{14}", "\u{0C}"])
    func aKeyThatTypesNothingWithinTheGraceBeginsTheLine(key: String) {
        for start in stride(from: 0, through: 1000, by: 10) {
            let line =
                [ScriptedTerminal.Step.bytes(key, after: .milliseconds(start))]
                + Self.steps("yes\r", startingAfter: 500, gaps: [80])
            let (outcome, _, _) = TypeAheadRun.run(.discarded(grace: ConfirmSession.grace), line + [.timeout])
            #expect(
                (outcome == .confirmed(true)) == (Duration.milliseconds(start) >= ConfirmSession.grace),
                "\(key.debugDescription) at \(start) ms, yes⏎ 500 ms later: \(outcome)")
        }
    }
}
