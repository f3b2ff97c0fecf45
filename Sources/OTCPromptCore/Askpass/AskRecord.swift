/// What otc-prompt remembers between runs, per user, to say what the caller did not: that the last answer was
/// not accepted (sudo's "Sorry, try again." is printed on the terminal, never spoken), and which one-time
/// notices were already given in this login session. It holds no secret: a process ID, a digest of the prompt
/// text and a time.
public struct AskRecord: Equatable, Sendable {
    /// The caller: the askpass program's parent (sudo, ssh, git), which asks again from the same process.
    public var callerProcess: Int32
    /// `digest` of the prompt text: enough to tell "the same question" without keeping its words.
    public var promptDigest: UInt64
    /// Seconds since boot when the answer was given.
    public var answeredAt: Int64

    /// How soon a second ask of the same question by the same caller counts as a retry: sudo and ssh ask again
    /// within a second or two of a rejection; a minute leaves room for a slow PAM module or server.
    public static let retryWindow: Int64 = 60

    public init(callerProcess: Int32, prompt: String, answeredAt: Int64) {
        self.callerProcess = callerProcess
        self.promptDigest = Self.digest(prompt)
        self.answeredAt = answeredAt
    }

    /// Whether `prompt`, asked by `callerProcess` at `now`, is this record's question asked again.
    public func isAskedAgain(by callerProcess: Int32, prompt: String, at now: Int64) -> Bool {
        callerProcess == self.callerProcess && Self.digest(prompt) == promptDigest && now >= answeredAt
            && now - answeredAt <= Self.retryWindow
    }

    /// "1 PID DIGEST TIME\n": one line, versioned.
    public var line: String { "1 \(callerProcess) \(promptDigest) \(answeredAt)\n" }

    /// The record a `line` holds; nil for anything else (an old or damaged file is ignored).
    public init?(line: String) {
        let fields = line.split(separator: " ", omittingEmptySubsequences: false).map {
            $0.trimmed(where: { $0 == "\n" })
        }
        guard fields.count == 4, fields[0] == "1", let process = Int32(fields[1]), let digest = UInt64(fields[2]),
            let time = Int64(fields[3])
        else { return nil }
        callerProcess = process
        promptDigest = digest
        answeredAt = time
    }

    /// FNV-1a, 64 bits: stable across runs and builds (Swift's `Hasher` is seeded per process).
    public static func digest(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}
