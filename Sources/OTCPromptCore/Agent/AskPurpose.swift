/// Who could have written a request: what its `Id=` claims is believed only of a request only root could write.
public enum AskOrigin: Equatable, Sendable {
    /// A directory of root's (the system's, `/run/systemd/ask-password`): only root could put a request there.
    case system
    /// A directory of the user's (`$XDG_RUNTIME_DIR/...`): any program the user runs could, claiming anything.
    case user
}

/// What a request's `Id=` says it is for, in words the user knows: systemd-cryptsetup's
/// `cryptsetup:/dev/sda2` is "disk sda2". An id of no known shape says nothing: the message is the question.
public enum AskPurpose: Equatable, Sendable {
    /// A disk to unlock, named by its device's last component (or the volume's name).
    case disk(String)
    /// A systemd-homed home directory, named by its user.
    case home(String)

    /// The purpose `id` names, its name made safe to show and say; nil for an id of no known shape.
    public init?(id: String?) {
        guard let id, let colon = id.firstIndex(of: ":") else { return nil }
        let prefix = id[..<colon]
        let rest = id[id.index(after: colon)...]
        guard let last = rest.split(separator: "/").last, !last.isEmpty else { return nil }
        let name = UntrustedText.visible(String(last.prefix(64)))
        switch prefix {
        case "cryptsetup", "cryptsetup-keyfile", "cryptsetup-pkcs11", "cryptsetup-fido2", "cryptsetup-tpm2":
            self = .disk(name)
        case "home", "homectl", "pam-systemd-home":
            self = .home(name)
        default:
            return nil
        }
    }
}
