import Foundation
import OTCPromptCore
import Testing

/// The docs quote the words a Ctrl-Z that cannot stop is answered with, word for word, and no longer
/// promise what the program does not do.
@Suite struct DocumentedRefusalsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The file's text with every run of blanks and line breaks (and a list's indentation) made one space.
    static func text(_ file: String) throws -> String {
        let raw = try String(contentsOfFile: root.path + "/" + file, encoding: .utf8)
        return raw.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }

    @Test(arguments: [false, true])
    func theUserGuideQuotesTheRefusal(whileCallerWaits: Bool) throws {
        let said = Wording(language: .en).cannotSuspend(whileCallerWaits: whileCallerWaits)
        #expect(try Self.text("docs/user-guide.md").contains(said))
    }

    @Test func theKeyTablesSayWhereCtrlZCannotStop() throws {
        for file in ["README.md", "docs/user-guide.md"] {
            let row = try Self.text(file).components(separatedBy: "| Ctrl-Z |").dropFirst().first ?? ""
            #expect(row.prefix(400).contains("cannot be suspended"), "\(file)")
        }
    }

    /// Checked against the program: a detached agent refuses (`DetachedSSHAgent`), a dumb terminal's
    /// burst is one paste (`anUnmarkedPasteFillsTheFieldAndWaitsForEnter`), ssh's retry is said.
    @Test func theGuidesNoLongerPromiseWhatTheProgramDoesNot() throws {
        let guide = try Self.text("docs/user-guide.md")
        #expect(!guide.contains("start the agent from your terminal session, `eval \"$(ssh-agent)\"`"))
        #expect(guide.contains("ssh-agent -D"))
        let accessibility = try Self.text("docs/accessibility.md")
        #expect(!accessibility.contains("an SMS is then not recognised as one paste"))
        #expect(!accessibility.contains("you hear the same prompt, not \"rejected\""))
        #expect(accessibility.contains(Wording(language: .en).previousAnswerNotAccepted))
    }
}
