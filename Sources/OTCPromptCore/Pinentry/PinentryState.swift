/// What gpg-agent has told the pinentry so far: the texts of the next dialog (SETDESC, SETPROMPT
/// and the rest, percent-decoded) and the options it set once at the start (OPTION).
public struct PinentryState: Equatable, Sendable {
    public var title: String?
    public var description: String?
    public var prompt: String?
    /// SETERROR: why the last attempt failed ("Bad passphrase (try 2 of 3)"); said before the
    /// field, then forgotten after the dialog, as pinentry does.
    public var error: String?
    public var okLabel: String?
    public var cancelLabel: String?
    public var notOKLabel: String?
    /// SETKEYINFO: which key the dialog is for ("n/0123…"); nil after "--clear".
    public var keyInfo: String?
    /// SETREPEAT: ask a second time, with this prompt ("" for the default one).
    public var repeatPrompt: String?
    public var repeatError: String?
    public var qualityBar = false
    /// SETTIMEOUT: seconds before the dialog gives up; 0 for none.
    public var timeoutSeconds = 0
    /// OPTION ttyname: the user's terminal, where the dialog happens.
    public var ttyName: String?
    public var ttyType: String?
    public var display: String?
    public var lcCtype: String?
    public var lcMessages: String?
    /// Every other option pinentry knows, by name: accepted and kept, not acted on.
    public var otherOptions: [String: String] = [:]

    public init() {}

    /// RESET: the dialog texts go, the options gpg-agent set once at the start stay.
    public mutating func reset() {
        var fresh = PinentryState()
        fresh.ttyName = ttyName
        fresh.ttyType = ttyType
        fresh.display = display
        fresh.lcCtype = lcCtype
        fresh.lcMessages = lcMessages
        fresh.otherOptions = otherOptions
        self = fresh
    }

    /// After GETPIN, as pinentry: the error, the repeat request and the quality bar are one-shot.
    mutating func endPINDialog() {
        error = nil
        repeatPrompt = nil
        qualityBar = false
    }

    /// Sets an option pinentry knows; false for one it does not (ERR Unknown option).
    mutating func setOption(_ name: String, value: String) -> Bool {
        switch name {
        case "ttyname": ttyName = value
        case "ttytype": ttyType = value
        case "display": display = value
        case "lc-ctype": lcCtype = value
        case "lc-messages": lcMessages = value
        case _ where Self.flags.contains(name) && value.isEmpty: otherOptions[name] = ""
        case _ where Self.valued.contains(name): otherOptions[name] = value
        default: return false
        }
        return true
    }

    /// pinentry 1.2's options that take no value.
    static let flags: Set<String> = [
        "no-grab", "grab", "allow-external-password-cache", "allow-emacs-prompt", "formatted-passphrase",
        "constraints-enforce",
    ]
    /// pinentry 1.2's other options that take a value.
    static let valued: Set<String> = [
        "debug-wait", "ttyalert", "owner", "parent-wid", "touch-file", "default-ok", "default-cancel",
        "default-prompt", "default-pwmngr", "default-cf-visi", "default-tt-visi", "default-tt-hide",
        "default-capshint", "invisible-char", "formatted-passphrase-hint", "constraints-hint-short",
        "constraints-hint-long", "constraints-error-title",
    ]
}
