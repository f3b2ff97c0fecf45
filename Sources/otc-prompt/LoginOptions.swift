import ArgumentParser
import OTCPromptLoop
import OTCPromptSettings

/// The options that fit the prompt into logins and scripts.
struct LoginOptions: ParsableArguments {
    @Option(Settings.check) var check: String?
    @Option(Settings.attempts) var attempts: Int?
    @Option(Settings.checkTimeout) var checkTimeout: Duration?
    @Option(Settings.timeout) var timeout: Duration?
    @Flag(Settings.askpass) var askpass: Bool
    @Flag(Settings.pinentry) var pinentry: Bool
    @Flag(Settings.stdin) var stdin: Bool

    func add(to values: inout SettingValues) {
        values.set(Settings.check, check)
        values.set(Settings.attempts, attempts)
        values.set(Settings.checkTimeout, checkTimeout)
        values.set(Settings.timeout, timeout)
        values.set(Settings.askpass, askpass ? true : nil)
        values.set(Settings.pinentry, pinentry ? true : nil)
        values.set(Settings.stdin, stdin ? true : nil)
    }

}
