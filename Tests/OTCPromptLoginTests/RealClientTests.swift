import Testing

/// otc-prompt as the askpass of the real clients: sudo, sshd with ssh, ssh-agent, git over
/// HTTP, each started by the test on this machine, typed at over a pseudo-terminal as a person would.
///
/// Each client's suite runs its tests one at a time (each test starts servers and creates a user), and
/// the suites run beside each other and beside the rest: every test has its own user, home, ports and
/// sockets, and waits for events with generous deadlines, so a busy machine slows it without breaking it.
/// One chain of every real client's tests was the longest part of the whole run.
@Suite(.runsPrograms, .enabled(if: runningAsRoot, needsRoot))
struct RealClientTests {}
