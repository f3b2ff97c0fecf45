import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
import OTCPromptLoop
import OTCPromptSettings
import OTCPromptTerminal

/// `--pinentry`, or run as `pinentry-otc`: gpg-agent's Assuan dialogs, each on the terminal it names.
struct PinentryFrontEndRun: FrontEndRun {
    /// Before `--stdin` and an askpass: gpg-agent runs it by its name, with no other choice of ours.
    static let priority = 30
    static var jobOptions: [any AnySetting] { [Settings.pinentry] }
    static func recognise(_ call: ParsedCall) -> Self? {
        call.commandLine.value(Settings.pinentry) || isPinentryName(call.programPath) ? Self() : nil
    }

    /// How gpg-agent's pinentry-program runs us: a program named pinentry-otc is a pinentry.
    static func isPinentryName(_ programPath: String) -> Bool {
        programPath.split(separator: "/").last == "pinentry-otc"
    }

    static let needs = FrontEndNeeds.withoutTheTerminal(notices: .standardErrorAndFirstDialog)

    func run(_ context: RunContext) -> Int32 {
        // A template: each dialog sets its own request.
        let template = context.withNotices(PromptFrontEnd.request(context.configuration), place: notices)
        return PinentryProgram(
            template: context.program(request: template, memory: context.memory()),
            frontEnd: PinentryFrontEnd(
                language: context.language, verbosity: context.settings.value(Settings.verbosity)),
            configNotices: PinentryProgram.OnceLines(context.notices)
        ).run()
    }
}
