/// What polkitd's `BeginAuthentication` asks the agent, as received: the action, its message and details, the
/// cookie the helper proves the password with, and who may answer.
public struct PolkitRequest: Equatable, Sendable {
    /// One identity polkitd accepts an answer from (`(sa{sv})`): a user by uid; any other kind is kept but cannot be
    /// asked (polkit's own agents ask users only).
    public enum Identity: Equatable, Hashable, Sendable {
        case user(uid: UInt32)
        case other(kind: String)
    }

    public var actionID: String
    /// The action's message, from its policy file, in the agent's locale.
    public var message: String
    public var details: [String: String]
    public var cookie: String
    public var identities: [Identity]

    public init(
        actionID: String, message: String, details: [String: String] = [:], cookie: String, identities: [Identity]
    ) {
        self.actionID = actionID
        self.message = message
        self.details = details
        self.cookie = cookie
        self.identities = identities
    }

    /// The process that asks: polkitd's `polkit.caller-pid`, else the subject's (`polkit.subject-pid`).
    public var askingProcess: Int32? {
        for key in ["polkit.caller-pid", "polkit.subject-pid"] {
            if let value = details[key], let pid = Int32(value), pid > 0 { return pid }
        }
        return nil
    }

    /// The users who may answer, the invoking user first (their own password, if polkit accepts it, is the one
    /// they know), the others in polkitd's order; each once.
    public func users(invokingUID: UInt32) -> [UInt32] {
        var seen = Set<UInt32>()
        let uids = identities.compactMap { identity -> UInt32? in
            if case .user(let uid) = identity, seen.insert(uid).inserted { return uid }
            return nil
        }
        return uids.filter { $0 == invokingUID } + uids.filter { $0 != invokingUID }
    }

    /// pkexec's request with what it runs, from pkexec's command line (`argv`, the caller's): polkitd sends no
    /// details that name the program, only its message. Sets `program` and `user` (root unless `--user`); unchanged
    /// when `argv` is not pkexec's or runs no program (a shell).
    public func withPkexecCommand(_ argv: [String]) -> PolkitRequest {
        guard actionID == "org.freedesktop.policykit.exec", let name = argv.first?.split(separator: "/").last,
            name == "pkexec"
        else { return self }
        var user = "root"
        var index = 1
        while index < argv.count {
            let argument = argv[index]
            if argument == "--user" || argument == "-u" {
                guard index + 1 < argv.count else { return self }
                user = argv[index + 1]
                index += 2
            } else if argument == "--disable-internal-agent" || argument == "--keep-cwd" {
                index += 1
            } else if argument == "--" {
                index += 1
                break
            } else if argument.hasPrefix("-") {
                return self
            } else {
                break
            }
        }
        guard index < argv.count, !argv[index].isEmpty else { return self }
        var request = self
        request.details["program"] = argv[index]
        request.details["user"] = user
        return request
    }
}
