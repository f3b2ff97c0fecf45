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
    /// The variables that held no usable value, one line each, and what was taken instead: said with the opening.
    public var problems: [String] = []

    public static let defaultTries = 3
    /// The most tries a `tries=` option may give; more is no count anyone types through.
    public static let triesRange = 0...9999

    public init(disk: String?, attempt: Int = 1, maximumAttempts: Int? = defaultTries) {
        self.disk = disk
        self.attempt = attempt
        self.maximumAttempts = maximumAttempts
    }

    /// The request the environment describes. Missing values take cryptroot's own defaults; a value out of range
    /// (not a number, negative, past the limit) takes the same default and a line in `problems`, never a trap.
    public init(environment: [String: String]) {
        var problems: [String] = []
        let tries = Self.number(environment, "CRYPTTAB_OPTION_tries", in: Self.triesRange, problems: &problems)
        let limit = tries ?? Self.defaultTries
        let tried = Self.number(
            environment, "CRYPTTAB_TRIED", in: 0...(limit > 0 ? limit - 1 : Self.triesRange.upperBound - 1),
            problems: &problems)
        self.init(
            disk: Self.diskName(source: environment["CRYPTTAB_SOURCE"], name: environment["CRYPTTAB_NAME"]),
            attempt: (tried ?? 0) + 1, maximumAttempts: limit > 0 ? limit : nil)
        self.problems = problems
    }

    /// The whole number `name` holds, if it is in `range`; nil when it is missing or empty (no line), or out of range
    /// (a line saying so).
    private static func number(
        _ environment: [String: String], _ name: String, in range: ClosedRange<Int>, problems: inout [String]
    ) -> Int? {
        guard let text = environment[name], !text.isEmpty else { return nil }
        if text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int(text), range.contains(value) {
            return value
        }
        let shown = UntrustedText.visible(String(text.prefix(24))) + (text.count > 24 ? "…" : "")
        problems.append(
            "\(name)=\(shown) is not a whole number from \(range.lowerBound) to \(range.upperBound);"
                + " taken as \(name == "CRYPTTAB_TRIED" ? "0, the first try" : "\(defaultTries), cryptroot's default")")
        return nil
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
