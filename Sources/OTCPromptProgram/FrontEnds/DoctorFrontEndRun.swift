import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
import OTCPromptLoop
import OTCPromptSettings
import OTCPromptTerminal

/// `--doctor`: a report of what a prompt here would do and why, shown and said; nothing asked.
struct DoctorFrontEndRun: ChosenByItsFlag {
    /// Before every other: a person asking why nothing is heard gets the report whatever else the line says.
    static let priority = 10
    static let flag = Settings.doctor

    static let needs = FrontEndNeeds.withoutTheTerminal(notices: .nowhere)

    func run(_ context: RunContext) -> Int32 {
        let settings = context.settings
        guard
            let lines = Doctor(
                choice: settings.value(Settings.speech), braille: settings.value(Settings.braille),
                voice: context.voice, environment: context.environment, configFile: context.file,
                escapeDelay: settings[Settings.escapeDelay]
            ).run(), let terminal = PromptProgram.openTerminal(environment: context.environment)
        else { return ExitStatus.submitted }
        // Said as a prompt says its words; what the notice's end answers is nothing for stdout.
        let request = DoctorFrontEnd.request(
            report: lines, language: context.language, verbosity: context.configuration.verbosity)
        var program = context.program(request: request, memory: context.memory())
        program.check = nil
        _ = program.runSession(on: terminal)
        return ExitStatus.submitted
    }
}
