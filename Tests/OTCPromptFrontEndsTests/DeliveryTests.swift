import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptLoop
import OTCPromptSettings
import Testing

/// How each outcome reaches a caller that reads stdout and the exit status, and what gpg-agent hears instead.
@Suite struct DeliveryTests {
    @Test func aSubmittedSecretIsPrintedAndAYesPrintsYes() {
        let secret = SecretBytes(copying: "123456")
        #expect(Delivery(.submitted(secret)) == .answer(secret))
        #expect(Delivery(.confirmed(true)) == .text("yes"))
        #expect(Delivery(.confirmed(true)).answers)
    }

    @Test(arguments: [
        (PromptOutcome.confirmed(false), ExitStatus.rejected), (.rejected, 1), (.cancelled, 130), (.callerGone, 130),
        (.terminalClosed, 129), (.timedOut, 124),
    ])
    func everyOtherEndIsAnExitStatusAlone(outcome: PromptOutcome, status: Int32) {
        #expect(Delivery(outcome) == .status(status))
        #expect(!Delivery(outcome).answers)
    }

    @Test func aFailureIsSaidWithItsStatus() {
        #expect(Delivery(.checkCouldNotRun("sh: not found")) == .failure(message: "sh: not found", status: 69))
        #expect(Delivery(.speechFailed("no voice")) == .failure(message: "no voice", status: 64))
        #expect(Delivery(.signalled(15)) == .signal(15))
        #expect(ExitStatus.signalled(15) == 143)
    }

    @Test(arguments: [
        (PromptOutcome?.some(.confirmed(true)), PinentryConversation.DialogResult.confirmed),
        (.some(.submitted(SecretBytes(copying: "x"))), .confirmed), (.some(.confirmed(false)), .notConfirmed),
        (.some(.timedOut), .timedOut), (.some(.signalled(2)), .interrupted), (.some(.cancelled), .cancelled),
        (.some(.callerGone), .cancelled), (.some(.terminalClosed), .cancelled), (.some(.speechFailed("x")), .cancelled),
        (nil, .cancelled),
    ])
    func gpgAgentHearsEachOutcome(outcome: PromptOutcome?, result: PinentryConversation.DialogResult) {
        #expect(PinentryFrontEnd.result(outcome) == result)
    }
}
