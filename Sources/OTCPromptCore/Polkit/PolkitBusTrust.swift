/// Who may call the agent's object on the system bus: polkitd alone. Any local program can send a method call to
/// the agent's unique name; a BeginAuthentication from one would put its own question before the user with the
/// look of polkit's, and a CancelAuthentication would withdraw polkitd's. So a call counts only from the connection
/// that owns `org.freedesktop.PolicyKit1` (as it did when the agent registered), or from root.
public enum PolkitBusTrust {
    public static let authorityName = "org.freedesktop.PolicyKit1"

    /// Whether a call from `sender` (its unique name) is polkitd's: `authority` is the unique name that owned
    /// polkit's name; `senderUID` is asked only when the names differ (its effective uid, nil when unknown).
    public static func accepts(sender: String?, authority: String?, senderUID: () -> UInt32?) -> Bool {
        guard let sender, !sender.isEmpty else { return false }
        if let authority, sender == authority { return true }
        return senderUID() == 0
    }
}
