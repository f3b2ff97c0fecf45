/// What one of systemd's own requests asks for, read from its message: systemd-cryptsetup writes fixed English
/// sentences (systemd has no translations), "Please enter passphrase for disk root:", so the agent can say the same
/// thing in the user's words, short, naming the secret for what it is. Only a request of the system's is read this way
/// (`AskOrigin.system`): from a user's directory the message stays that program's own text.
///
/// The sentences of systemd 252 to 259 (`src/cryptsetup/cryptsetup.c`, `cryptsetup-fido2.c`, `cryptsetup-tpm2.c`,
/// `src/shared/pkcs11-util.c`): `Please enter passphrase|recovery key|passphrase or recovery key for disk NAME:`
/// (`(verification):` when asked again to confirm), `Please enter security token PIN:` (FIDO2), `Please enter TPM2
/// PIN:`, `Please enter LUKS2 token PIN:`, and PKCS#11's `Please enter PIN for security token 'LABEL' in order to
/// unlock NAME:` with `(try #N)` or `(final try)`, or opened by `PIN has been entered incorrectly previously, please
/// enter correct PIN …`. The PIN requests carry no `Id=`; a disk's passphrase carries `Id=cryptsetup:DEVICE`.
public struct SystemAsk: Equatable, Sendable {
    public enum Secret: Equatable, Sendable {
        case passphrase
        case recoveryKey
        case passphraseOrRecoveryKey
        /// A FIDO2 security key's PIN (no name), or a PKCS#11 token's (its label).
        case securityTokenPIN(token: String?)
        case tpm2PIN
        /// The PIN of a LUKS2 token plugin.
        case tokenPIN
    }

    public var secret: Secret
    /// The disk as systemd names it, shortened to what the user knows (`SystemAsk.diskName`); nil when not said.
    public var disk: String?
    /// Asked a second time, to confirm the first (`(verification)`).
    public var isVerification: Bool
    /// The try systemd counts itself (PKCS#11's `(try #2)`); nil when it does not say.
    public var attempt: Int?
    /// PKCS#11's token says a wrong PIN now would lock it, or that wrong PINs were entered before.
    public var isLastTry: Bool
    public var hadWrongTries: Bool

    public init(
        _ secret: Secret, disk: String? = nil, isVerification: Bool = false, attempt: Int? = nil,
        isLastTry: Bool = false, hadWrongTries: Bool = false
    ) {
        self.secret = secret
        self.disk = disk
        self.isVerification = isVerification
        self.attempt = attempt
        self.isLastTry = isLastTry
        self.hadWrongTries = hadWrongTries
    }

    /// Whether it asks for a PIN (a security token's or a TPM's), not a passphrase.
    public var isPIN: Bool {
        switch secret {
        case .securityTokenPIN, .tpm2PIN, .tokenPIN: true
        case .passphrase, .recoveryKey, .passphraseOrRecoveryKey: false
        }
    }

    /// The request `message` makes, when it is one of systemd's sentences; nil for any other text.
    public init?(message: String?) {
        guard var text = message?.trimmed(where: \.isWhitespace), text.hasSuffix(":") else { return nil }
        text.removeLast()
        switch text {
        case "Please enter security token PIN": self.init(.securityTokenPIN(token: nil))
        case "Please enter TPM2 PIN": self.init(.tpm2PIN)
        case "Please enter LUKS2 token PIN": self.init(.tokenPIN)
        default:
            if let disk = Self.parse(text, after: "Please enter ", before: " for disk ") {
                self.init(diskSentence: disk)
            } else {
                self.init(pkcs11: text)
            }
        }
    }

    /// `Please enter SECRET for disk NAME`, NAME possibly followed by ` (verification)`.
    private init?(diskSentence parts: (head: String, tail: String)) {
        let secret: Secret
        switch parts.head {
        case "passphrase": secret = .passphrase
        case "recovery key": secret = .recoveryKey
        case "passphrase or recovery key": secret = .passphraseOrRecoveryKey
        default: return nil
        }
        var name = parts.tail
        let verification = name.hasSuffix(" (verification)")
        if verification { name.removeLast(" (verification)".count) }
        self.init(secret, disk: Self.diskName(name), isVerification: verification)
    }

    /// PKCS#11's sentences: `Please enter PIN for security token 'LABEL' in order to unlock NAME` and its variants.
    private init?(pkcs11 text: String) {
        var rest = Substring(text)
        var hadWrongTries = false
        for opening in [
            "Please enter PIN for security token '", "Please enter correct PIN for security token '",
            "PIN has been entered incorrectly previously, please enter correct PIN for security token '",
        ] where rest.hasPrefix(opening) {
            hadWrongTries = opening.hasPrefix("PIN has been")
            rest = rest.dropFirst(opening.count)
            break
        }
        guard rest.count < text.count, let quote = rest.firstRange(ofText: "' in order to unlock ") else { return nil }
        let token = String(rest[..<quote.lowerBound])
        var name = String(rest[quote.upperBound...])
        var attempt: Int?
        var lastTry = false
        if name.hasSuffix(" (final try)") {
            name.removeLast(" (final try)".count)
            lastTry = true
        } else if name.hasSuffix(")"), let open = name.lastRange(ofText: " (try #"),
            let number = Int(name[open.upperBound..<name.index(before: name.endIndex)])
        {
            attempt = number
            name = String(name[..<open.lowerBound])
        }
        self.init(
            .securityTokenPIN(token: token.isEmpty ? nil : UntrustedText.visible(String(token.prefix(64)))),
            disk: Self.diskName(name), attempt: attempt, isLastTry: lastTry, hadWrongTries: hadWrongTries)
    }

    /// The volume a FIDO2 PIN's asker unlocks, from its command line: systemd-cryptsetup asks "Please enter security
    /// token PIN:" with no disk and no `Id=`, but runs as `systemd-cryptsetup attach VOLUME SOURCE [KEY [OPTIONS]]`
    /// (its unit `systemd-cryptsetup@VOLUME.service`). Nil for any other program, or another verb.
    public static func cryptsetupVolume(arguments: [String]) -> String? {
        guard arguments.count >= 3, arguments[0].split(separator: "/").last == "systemd-cryptsetup",
            arguments[1] == "attach", !arguments[2].isEmpty
        else { return nil }
        return diskName(arguments[2])
    }

    /// The disk as the user knows it, from systemd's friendly name (`DESCRIPTION (VOLUME) on MOUNT`, `VOLUME on
    /// MOUNT`, `DESCRIPTION (VOLUME)` or `VOLUME`): the description (a partition's label, a drive's model) when there
    /// is one, else the volume; a volume that is a UUID (`luks-…` under `rd.luks.uuid=`) by its first eight digits,
    /// which tell disks apart where 36 characters read aloud would not; a volume named as Debian's installer names
    /// them (`sda2_crypt`) by its device, as the boot prompt of initramfs-tools says it ("disk sda2"). Scrubbed: it is
    /// outside text.
    public static func diskName(_ friendly: String) -> String? {
        var name = Substring(friendly)
        if let on = name.lastRange(ofText: " on /") { name = name[..<on.lowerBound] }
        if name.hasSuffix(")"), let open = name.lastRange(ofText: " (") {
            name = name[..<open.lowerBound]
        }
        var volume = name
        if volume.hasPrefix("luks-") { volume = volume.dropFirst(5) }
        if isUUID(volume) { name = volume.prefix(8) }
        if name.hasSuffix("_crypt"), name.count > "_crypt".count { name = name.dropLast("_crypt".count) }
        let visible = UntrustedText.visible(String(name.prefix(64)))
        return visible.isEmpty ? nil : visible
    }

    private static func isUUID(_ text: Substring) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    /// `(head, tail)` of `text` = `opening` + head + `separator` + tail; nil when it is not of that shape.
    private static func parse(_ text: String, after opening: String, before separator: String) -> (
        head: String, tail: String
    )? {
        guard text.hasPrefix(opening), let middle = text.firstRange(ofText: separator) else { return nil }
        let head = text[text.index(text.startIndex, offsetBy: opening.count)..<middle.lowerBound]
        return (String(head), String(text[middle.upperBound...]))
    }
}
