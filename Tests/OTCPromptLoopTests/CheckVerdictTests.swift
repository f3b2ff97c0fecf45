import OTCPromptCore
import OTCPromptLoop
import Testing

/// "the check said no" is not "the check could not run".
@Suite struct CheckVerdictTests {
    @Test(arguments: [(Int32(0), "accepted"), (1, "rejected"), (2, "rejected"), (126, "error"), (127, "error")])
    func theShellsStatusDecides(status: Int32, kind: String) {
        let verdict = CheckVerdict.exited(status)
        let actual: String =
            switch verdict {
            case .accepted: "accepted"
            case .rejected: "rejected"
            case .couldNotRun: "error"
            }
        #expect(actual == kind)
    }

    @Test func aKillBySomeoneElseIsAnError() {
        #expect(CheckVerdict.killed(by: 9) == .couldNotRun("it was killed by signal 9"))
    }

    @Test func aCheckThatCannotStartEndsThePromptWithoutUsingAnAttempt() {
        let run = LoopRun(
            PromptConfiguration(checksCode: true), check: CheckSettings(command: "x", timeout: .seconds(5)),
            checks: [], script: [.bytes("123456")], failingStart: true)
        guard case .checkCouldNotRun(let message) = run.outcome else { return #expect(Bool(false), "\(run.outcome)") }
        #expect(message.hasPrefix("the check could not run"))
        #expect(run.events.last == .checkError)
    }
}
