/// How many times one process has asked the same thing: systemd-cryptsetup asks again, from the same process, when
/// the passphrase or PIN it was given did not open the disk, and its request does not say that it is a retry. The
/// agent counts its own answers here to say "Wrong passphrase, try 2." first.
///
/// A request is the same when the same process asks it again under the same key (its `Id=`, or for PINs, which carry
/// none, what it asks). A process that has ended is forgotten (`forget`), so a reused PID starts again at 1.
public struct AgentRetries: Equatable, Sendable {
    struct Answered: Equatable, Sendable {
        var pid: Int32
        var key: String
        var count: Int
    }

    private var answered: [Answered] = []
    /// A bound on what is remembered: an agent asked by one disk's three tries needs one entry.
    static let limit = 16

    public init() {}

    /// The try a request of process `pid` asking `key` is: 1, or one more than the answers it was given here.
    public func attempt(pid: Int32?, key: String) -> Int {
        guard let pid else { return 1 }
        return (answered.first { $0.pid == pid && $0.key == key }?.count ?? 0) + 1
    }

    /// Records that the request of `pid` asking `key` was answered.
    public mutating func answered(pid: Int32?, key: String) {
        guard let pid else { return }
        if let index = answered.firstIndex(where: { $0.pid == pid && $0.key == key }) {
            answered[index].count += 1
        } else {
            answered.append(Answered(pid: pid, key: key, count: 1))
            if answered.count > Self.limit { answered.removeFirst() }
        }
    }

    /// Forgets the processes for which `hasEnded` holds.
    public mutating func forget(where hasEnded: (Int32) -> Bool) {
        answered.removeAll { hasEnded($0.pid) }
    }

    /// Whether a process answered here may still ask again: then the agent keeps this memory, rather than renew
    /// itself without it.
    public var awaitsAskers: Bool { !answered.isEmpty }

    /// The key a request is remembered by: its `Id=`, else what it asks (systemd's PIN requests carry no `Id=`).
    public static func key(id: String?, asked: SystemAsk?) -> String {
        if let id { return "id:" + id }
        guard let asked else { return "" }
        switch asked.secret {
        case .securityTokenPIN(let token): return "security-token-pin:" + (token ?? "") + ":" + (asked.disk ?? "")
        case .tpm2PIN: return "tpm2-pin"
        case .tokenPIN: return "token-pin"
        case .passphrase, .recoveryKey, .passphraseOrRecoveryKey: return "disk:" + (asked.disk ?? "")
        }
    }
}
