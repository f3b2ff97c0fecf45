import OTCPromptCore
import OTCPromptSettings
import Testing

@testable import OTCPromptProgram

/// `--touch-watch`'s choice and needs: chosen by its flag alone, whatever else the line says; it asks nothing, so
/// the command opens no terminal for it (the run takes the one it is in, as it is), posts nothing and loads no voice
/// before a cue.
@Suite struct TouchWatchFrontEndRunTests {
    @Test func itsFlagChoosesIt() throws {
        #expect(try FrontEndChoiceTests.chosen(["--touch-watch"]).hasPrefix("TouchWatchFrontEndRun("))
        #expect(
            try FrontEndChoiceTests.chosen(["--touch-watch", "--touch-says-done"]).hasPrefix("TouchWatchFrontEndRun("))
        // A report asked for on the same line wins, as over every front end.
        #expect(try FrontEndChoiceTests.chosen(["--doctor", "--touch-watch"]).hasPrefix("DoctorFrontEndRun("))
    }

    @Test func itNeedsNothingOfTheTerminalAndSaysTheFilesProblemsOnStderr() {
        #expect(TouchWatchFrontEndRun.needs == .withoutTheTerminal(notices: .standardError))
    }
}
