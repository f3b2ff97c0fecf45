import OTCPromptCore
import OTCPromptLoop

/// `--cryptsetup`: cryptroot runs the keyscript once per try with the disk and the tries so far in `CRYPTTAB_*`
/// (`CryptsetupRequest`), and reads the key from its stdout.
public enum CryptsetupFrontEnd {
    /// The masked field "Unlock disk sda2", a retry's news first. Keys typed while the prompt starts count, as
    /// at `otc-prompt`: the person at the console started the boot and may type before the prompt appears.
    public static func request(
        environment: [String: String], language: Language, verbosity: Verbosity, timeLimit: Duration?
    ) -> Request {
        let field = CryptsetupRequest(environment: environment).configuration(
            language: language, verbosity: verbosity, timeLimit: timeLimit)
        return Request(.field(field), typeAhead: .kept)
    }

    /// The PC speaker's cue when the prompt has no voice (`BootCue`): the first try's, or a retry's.
    public static func cue(environment: [String: String]) -> BootCue {
        BootCue.question(isPIN: false, attempt: CryptsetupRequest(environment: environment).attempt)
    }

    /// What the `CRYPTTAB_*` variables held that could not be used, one line each: said with the opening, as the
    /// configuration file's problems are.
    public static func problems(environment: [String: String]) -> [String] {
        CryptsetupRequest(environment: environment).problems
    }

    /// As for any caller that reads stdout, but the passphrase goes out with no line break: cryptsetup
    /// (`--key-file=-`) takes every byte it reads as the key.
    public static func delivery(_ outcome: PromptOutcome) -> Delivery {
        switch Delivery(outcome) {
        case .answer(let secret): .key(secret)
        case let other: other
        }
    }
}
