/// The `--check` command, as given on the command line.
public struct CheckSettings: Sendable {
    public var command: String
    /// A check still running after this long is killed and counts as a rejection.
    public var timeout: Duration
    /// A check still running after this long is announced ("checking").
    public static let slowAfter: Duration = .milliseconds(500)

    public init(command: String, timeout: Duration) {
        self.command = command
        self.timeout = timeout
    }
}

/// One running check: the process and when it started (time since the prompt began).
struct CheckRun {
    let process: any CheckProcess
    let startedAt: Duration
    var saidChecking = false

    /// The next moment the loop must wake for this check, even if it stays silent.
    func nextDeadline(settings: CheckSettings) -> Duration {
        saidChecking ? startedAt + settings.timeout : startedAt + min(CheckSettings.slowAfter, settings.timeout)
    }
}
