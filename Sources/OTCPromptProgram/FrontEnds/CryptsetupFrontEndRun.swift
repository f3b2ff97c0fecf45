import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
import OTCPromptLoop
import OTCPromptSettings
import OTCPromptTerminal

/// `--cryptsetup`: cryptsetup's keyscript at boot, the disk's passphrase on stdout; heard as the PC speaker's tones
/// when no sound card speaks.
struct CryptsetupFrontEndRun: ChosenByItsFlag {
    static let priority = 50
    static let flag = Settings.cryptsetup

    static let needs = FrontEndNeeds.askedAtTheTerminal

    /// cryptsetup takes the key from stdout: one that cannot take it fails now, not after the passphrase is typed
    /// (cryptroot then asks again, with its own prompt).
    func refusal(environment: [String: String]) -> Int32? {
        guard let unusable = StandardOutput.unusable else { return nil }
        StandardError.writeLine("\(Program.name): \(HostError.standardOutput(unusable))")
        return ExitStatus.outputFailed
    }

    func problems(environment: [String: String]) -> [String] { CryptsetupFrontEnd.problems(environment: environment) }

    func run(_ context: RunContext) -> Int32 {
        guard let terminal = context.terminal else { return ExitStatus.noTerminal }
        let request = context.withNotices(
            CryptsetupFrontEnd.request(
                environment: context.environment, language: context.language,
                verbosity: context.configuration.verbosity, timeLimit: context.configuration.timeLimit),
            place: notices)
        var program = context.program(request: request, memory: context.memory())
        program.policy = .keyscript(cue: CryptsetupFrontEnd.cue(environment: context.environment))
        return program.run(on: terminal, delivery: CryptsetupFrontEnd.delivery)
    }
}
