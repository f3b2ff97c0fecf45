import Foundation
import OTCPromptCore
import OTCPromptTestSupport
import Testing

@testable import OTCPromptDocs
@testable import OTCPromptSettings

/// The committed man page and completions are what the declarations generate now; `make docs` rewrites them.
@Suite struct GeneratedDocsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(arguments: GeneratedDocs.files.map(\.path))
    func theCommittedFileIsWhatTheDeclarationsGenerate(path: String) throws {
        let committed = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
        let generated = try #require(GeneratedDocs.files.first { $0.path == path }).text
        #expect(committed == generated, "\(path) differs from the declarations: run make docs")
    }

    @Test func everyOptionIsInTheHelpTheManPageAndEveryCompletion() {
        let documents = [HelpText.text(), ManPage.text, Completions.bash, Completions.zsh, Completions.fish]
        for setting in Settings.all {
            for document in documents {
                let spelled =
                    switch document {
                    case ManPage.text: "Fl \\-\(setting.name)"
                    case Completions.fish: "-l \(setting.name) "
                    default: "--\(setting.name)"
                    }
                #expect(document.contains(spelled), "\(setting.name)")
            }
        }
    }

    @Test func theHelpHasNoColumnsOfSpaces() {
        for line in HelpText.text().split(separator: "\n") {
            let text = line.drop { $0 == " " }
            #expect(!text.contains("  "), "\(line)")
            #expect(line.count <= 80, "\(line)")
        }
    }

    @Test func theManPageEscapesWhatRoffWouldReadAsMarkup() {
        #expect(ManPage.roff("--mask and **bold**") == "\\-\\-mask and \\fBbold\\fR")
        #expect(ManPage.roff("1–12, pt…") == "1\\[u2013]12, pt\\[u2026]")
        #expect(ManPage.roff(".hidden") == "\\&.hidden")
        #expect(ManPage.roff("a\\b one-time") == "a\\eb one-time")
        #expect(!ManPage.text.unicodeScalars.contains { !$0.isASCII })
    }

    /// bash itself loads the script and completes, as `make deb-check` does with bash-completion.
    @Test(arguments: [
        (["--spe"], ["--speech", "--speech-log", "--spell"]),
        (["--speech", ""], ["auto", "speechd", "espeak", "text", "none"]),
        (["--speech", "="], ["auto", "speechd", "espeak", "text", "none"]),
        (["--speech", "=", "e"], ["espeak"]),
        (["--lang", "p"], Language.allCases.map(\.tag).filter { $0.hasPrefix("p") }),
        (["--rate", ""], []),
        (["--", "--spe"], []),
        (["-"], ["-n", "--length"]),
    ])
    func bashCompletesOptionsAndChoices(words: [String], expected: [String]) throws {
        let script =
            Completions.bash + """
                COMP_WORDS=(otc-prompt "$@"); COMP_CWORD=$#; COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
                _otc_prompt otc-prompt "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                printf '%s\\n' "${COMPREPLY[@]}"
                """
        let process = try SpawnedProgram(
            "/bin/bash", ["-c", script, "bash"] + words, environment: ProcessInfo.processInfo.environment)
        _ = process.waitForExit(deadline: .seconds(30))
        process.waitForOutput()
        let offered = process.output.split(separator: "\n").map(String.init)
        if words == ["-"] {
            #expect(offered.count == Settings.all.count + Settings.all.filter { $0.shortName != nil }.count + 3)
            #expect(expected.allSatisfy(offered.contains))
        } else {
            #expect(offered == expected, "\(words)")
        }
    }
}
