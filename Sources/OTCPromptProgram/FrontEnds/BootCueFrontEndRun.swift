import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
import OTCPromptLoop
import OTCPromptSettings
import OTCPromptTerminal

/// `--boot-cue`: one of the disk prompt's tones on the PC speaker, nothing asked.
struct BootCueFrontEndRun: FrontEndRun {
    let cue: BootCue

    static let priority = 20
    static var jobOptions: [any AnySetting] { [Settings.bootCue] }
    static func recognise(_ call: ParsedCall) -> Self? { call.commandLine[Settings.bootCue].map { Self(cue: $0) } }

    static let needs = FrontEndNeeds.withoutTheTerminal(notices: .nowhere)

    func run(_ context: RunContext) -> Int32 {
        PCSpeaker.play(cue) ? ExitStatus.submitted : ExitStatus.noTerminal
    }
}
