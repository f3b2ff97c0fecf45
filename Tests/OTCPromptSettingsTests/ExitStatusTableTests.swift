import Foundation
import OTCPromptCore
import Testing

@testable import OTCPromptSettings

/// The exit statuses are declared once (`ExitStatus.table`); `--help`, the man page and the docs' tables are read
/// from it. `OTC_PROMPT_UPDATE_DOCS=1 swift test --filter ExitStatusTableTests` rewrites the docs' tables.
@Suite struct ExitStatusTableTests {
    @Test(arguments: ["README.md", "docs/user-guide.md"])
    func theDocsListTheDeclaredExitStatuses(path: String) throws {
        let url = OptionTablesTests.root.appendingPathComponent(path)
        let document = try String(contentsOf: url, encoding: .utf8)
        let expected = try #require(
            OptionTables.replacingGenerated(in: document, with: ExitStatus.markdownTable, marker: "exit-status"),
            "no exit-status markers")
        if ProcessInfo.processInfo.environment["OTC_PROMPT_UPDATE_DOCS"] == "1", expected != document {
            try expected.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        #expect(document == expected, "run OTC_PROMPT_UPDATE_DOCS=1 swift test --filter ExitStatusTableTests")
    }

    @Test func everyStatusTheProgramReturnsIsInTheTable() {
        let listed = Set(ExitStatus.table.map(\.status))
        let returned: [Int32] = [
            ExitStatus.submitted, ExitStatus.rejected, ExitStatus.usage, ExitStatus.invalidInput,
            ExitStatus.checkCouldNotRun, ExitStatus.noTerminal, ExitStatus.outputFailed, ExitStatus.unsupportedCharset,
            ExitStatus.timedOut, ExitStatus.terminalClosed, ExitStatus.cancelled,
        ]
        for status in returned { #expect(listed.contains("\(status)"), "exit status \(status) is not documented") }
    }

    @Test func helpAndTheManPageListEveryStatus() {
        let help = HelpText.text(width: 1000)
        for entry in ExitStatus.table { #expect(help.contains("\(entry.status) \(entry.summary)")) }
    }
}
