import Foundation
import OTCPromptTestSupport
import Testing

@testable import OTCPromptCore

/// Every registered language, through the built binary on a pty: the speech log holds that
/// language's words, looked up in its catalog (a new catalog is tested without a test edit).
@Suite(.runsPrograms) struct LanguagesEndToEndTests {
    @Test(.timeLimit(.minutes(5)), arguments: Language.allCases)
    func aWholeSessionIsSaidInTheLanguage(language: Language) async throws {
        let catalog = language.catalog
        let label = catalog.text("defaultLabel")
        let run = try await PromptRun(["--lang", language.tag, "--no-auto-submit"], ready: label)
        let opening = try #require(await run.logEntries(atLeast: 1).first { $0.event == "prompt" }, "\(language)")
        let lead = "\(label). " + catalog.plural("lead.digitsThenEnter", count: 6, 6)
        #expect(opening.lead == lead, "\(language): \(opening.text)")
        #expect(opening.text.hasPrefix(lead), "\(language): \(opening.text)")

        run.type("9")
        #expect(await run.waitForEvent("digit"), "\(language)")
        run.type("x")
        #expect(await run.waitForEvent("reject"), "\(language)")
        let rejected = catalog.utterance("notAllowed.letter", .characters([["X"]])).text
        let reject = run.log.last { $0.event == "reject" }
        #expect(reject?.text == "\(rejected), \(catalog.text("only.digits"))", "\(language)")
        run.type([0x7f])
        #expect(await run.waitForEvent("delete"), "\(language)")
        let delete = run.log.last { $0.event == "delete" }
        #expect(delete?.text.contains(catalog.text("deleted")) == true, "\(language): \(delete?.text ?? "")")

        run.type("985391")
        #expect(await run.waitForEvent("digit", count: 7), "\(language)")
        run.type([0x12])
        #expect(await run.waitForEvent("readback"), "\(language)")
        let readback = run.log.last { $0.event == "readback" }
        #expect(readback?.text == "9 8 5, 3 9 1. \(catalog.plural("allEntered", count: 6, 6))", "\(language)")
        run.type("\r")
        #expect(await run.exit() == .exited(0), "\(language)")
        #expect(run.process.standardOutput == "985391\n")
        let complete = run.log.last { $0.event == "complete" }
        #expect(complete?.text == catalog.text("complete"), "\(language): \(complete?.text ?? "")")
    }
}
