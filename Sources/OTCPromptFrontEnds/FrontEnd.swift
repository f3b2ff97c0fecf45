import OTCPromptCore
import OTCPromptSettings

/// Who is asking, and through which protocol: the command line's choice, which `FrontEndRegistry` (in
/// OTCPromptProgram) maps to the front end's run.
public enum FrontEnd: Equatable, Sendable {
    /// `otc-prompt [PROMPT]`: the code field the options describe, the code on stdout.
    case prompt
    /// SSH_ASKPASS, SUDO_ASKPASS, GIT_ASKPASS: the prompt text says what is asked (`AskpassFrontEnd`).
    case askpass(prompt: String)
    /// An askpass call with SSH_ASKPASS_PROMPT=none: ssh's security-key notice, nothing asked (`TouchFrontEnd`).
    case touch(prompt: String)
    /// `--pinentry`, or run as `pinentry-otc`: gpg-agent's Assuan dialogs (`PinentryFrontEnd`).
    case pinentry
    /// `--stdin`: one line of standard input, no prompt (`StdinFrontEnd`).
    case stdin
    /// `--cryptsetup`: cryptsetup's keyscript at boot, the disk's passphrase on stdout (`CryptsetupFrontEnd`).
    case cryptsetup
    /// `--doctor`: a report, nothing asked.
    case doctor
    /// `--boot-cue`: one of the disk prompt's tones on the PC speaker, nothing asked.
    case bootCue(BootCue)
    /// `--agent`: systemd's password requests, asked one by one (`AgentFrontEnd`); `query` answers those waiting
    /// and exits.
    case agent(query: Bool)
    /// `--polkit-agent`: polkit's authentication agent, for a process (`--process`) or the login session.
    case polkitAgent(process: Int32?)

    /// The front end a command line asks for. These are command-line options only: no config file can change them.
    /// - Parameters:
    ///   - programPath: argv[0]; a program named `pinentry-otc` is a pinentry.
    ///   - environment: the caller's variables that name the protocol it speaks (an askpass's
    ///     SSH_ASKPASS_PROMPT=none: a touch notice); never a choice of where or how to speak.
    public static func choose(
        commandLine: SettingValues, prompt: String?, programPath: String, environment: [String: String]
    ) -> FrontEnd {
        if commandLine.value(Settings.doctor) { return .doctor }
        if let cue = commandLine[Settings.bootCue] { return .bootCue(cue) }
        if commandLine.value(Settings.pinentry) || isPinentryName(programPath) { return .pinentry }
        if commandLine.value(Settings.stdin) { return .stdin }
        if commandLine.value(Settings.cryptsetup) { return .cryptsetup }
        if commandLine.value(Settings.polkitAgent) {
            return .polkitAgent(process: commandLine[Settings.process].map { Int32(clamping: $0) })
        }
        if commandLine.value(Settings.agent) { return .agent(query: commandLine.value(Settings.query)) }
        // `AskpassArguments` has already turned an askpass call into `--askpass -- PROMPT`.
        if commandLine.value(Settings.askpass), let prompt {
            return TouchFrontEnd.isTouch(environment: environment) ? .touch(prompt: prompt) : .askpass(prompt: prompt)
        }
        return .prompt
    }

    /// How gpg-agent's pinentry-program runs us: a program named pinentry-otc is a pinentry.
    public static func isPinentryName(_ programPath: String) -> Bool {
        programPath.split(separator: "/").last == "pinentry-otc"
    }
}
