/// What cryptsetup's initramfs asks a keyscript (`keyscript=` in /etc/crypttab), read from the variables
/// `run_keyscript` exports: the disk, and how many passphrases it has already turned down.
///
/// cryptroot runs the keyscript once per try, with `CRYPTTAB_TRIED` the number of tries before this one, and
/// takes its stdout as the key; `CRYPTTAB_OPTION_tries` is exported only when the crypttab entry sets `tries=`
/// (3 otherwise, 0 for no limit), as `scripts/local-top/cryptroot` counts them.
public struct CryptsetupRequest: Equatable, Sendable {
    /// The device as the user knows it: "sda2" for /dev/sda2, else the mapping's name ("cryptroot").
    public var disk: String?
    /// This try, from 1.
    public var attempt: Int
    /// How many tries cryptroot allows; nil for no limit.
    public var maximumAttempts: Int?

    public static let defaultTries = 3

    public init(disk: String?, attempt: Int = 1, maximumAttempts: Int? = defaultTries) {
        self.disk = disk
        self.attempt = attempt
        self.maximumAttempts = maximumAttempts
    }

    /// The request the environment describes; what is missing or not a number takes cryptroot's own default.
    public init(environment: [String: String]) {
        let tried = environment["CRYPTTAB_TRIED"].flatMap { Int($0) }.map { max(0, $0) } ?? 0
        let tries = environment["CRYPTTAB_OPTION_tries"].flatMap { Int($0) } ?? Self.defaultTries
        self.init(
            disk: Self.diskName(source: environment["CRYPTTAB_SOURCE"], name: environment["CRYPTTAB_NAME"]),
            attempt: tried + 1, maximumAttempts: tries > 0 ? tries : nil)
    }

    /// A source under /dev/ by its last component (by-uuid links are resolved by cryptroot before the keyscript
    /// runs); anything else by the mapping's name, which the user chose.
    static func diskName(source: String?, name: String?) -> String? {
        if let source, source.hasPrefix("/dev/"), let last = source.split(separator: "/").last {
            return UntrustedText.visible(String(last))
        }
        return name.flatMap { $0.isEmpty ? nil : UntrustedText.visible($0) }
    }

    /// A masked free-text field labelled "Unlock disk sda2", with "Wrong passphrase, try 2 of 3." said first on a
    /// second try. Enter submits; cryptroot judges the passphrase, so the prompt does not check it.
    public func configuration(
        language: Language, verbosity: Verbosity = .normal, timeLimit: Duration? = nil
    ) -> PromptConfiguration {
        let wording = Wording(language: language)
        var field = PromptConfiguration.freeText(
            label: wording.unlockDisk(disk), mask: true, language: language, verbosity: verbosity,
            timeLimit: timeLimit)
        if attempt > 1 { field.news = [wording.wrongPassphrase(attempt: attempt, of: maximumAttempts)] }
        return field
    }
}
