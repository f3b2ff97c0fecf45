import Testing

/// otc-prompt as the askpass of the real clients: sudo, sshd with ssh, ssh-agent, git over
/// HTTP, each started by the test on this machine, typed at over a pseudo-terminal as a person would.
///
/// One at a time: each test starts servers and creates a user, and the machine has few cores.
@Suite(.serialized, .enabled(if: runningAsRoot, needsRoot))
struct RealClientTests {}
