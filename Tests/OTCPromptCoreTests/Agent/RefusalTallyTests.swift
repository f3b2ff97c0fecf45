import Testing

@testable import OTCPromptCore

/// Refusals told one line a reason, with a count: thousands of bad files are a few lines, not thousands.
@Suite struct RefusalTallyTests {
    @Test func oneRefusalIsToldByName() {
        var tally = RefusalTally()
        tally.record("ask.link", reason: "it is not a regular file")
        #expect(tally.take() == ["ask.link refused: it is not a regular file"])
        #expect(tally.isEmpty)
    }

    @Test func manyRefusalsAreOneLineAReasonInTheOrderFirstMet() {
        var tally = RefusalTally()
        for index in 0..<4100 { tally.record("ask.\(index)", reason: "it is not a request (noAskSection)") }
        tally.record("ask.big", reason: "it is larger than 64 KiB")
        tally.record("ask.9999", reason: "it is not a request (noAskSection)")
        #expect(
            tally.take() == [
                "4101 requests refused: it is not a request (noAskSection) (ask.0 and others)",
                "ask.big refused: it is larger than 64 KiB",
            ])
        #expect(tally.take().isEmpty)
    }
}
