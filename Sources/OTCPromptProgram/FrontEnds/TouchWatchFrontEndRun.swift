import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
import OTCPromptLoop
import OTCPromptSettings
import OTCPromptTerminal

/// `--touch-watch`: says when a security key waits for a touch (`TouchWatchProgram`), until a signal ends it.
///
/// It asks nothing at the terminal, so the command opens none: the run takes the one it was started in, if any, for
/// its lines and its login session (where the person is), as it is, never raw; Ctrl-C is then the terminal's
/// SIGINT. A user unit has none: its lines go to stdout, the journal.
struct TouchWatchFrontEndRun: ChosenByItsFlag {
    /// After the agent's, before the askpass detection: its own option names it.
    static let priority = 65
    static let flag = Settings.touchWatch

    static let needs = FrontEndNeeds.withoutTheTerminal(notices: .standardError)

    func run(_ context: RunContext) -> Int32 {
        context.writeNoticesOnStandardError()
        return TouchWatchProgram(context: context).run()
    }
}
