import Glibc
import OTCPromptCore
import Testing

@testable import OTCPromptHost

/// /proc as the session rule reads it: this process and names that hold spaces and parentheses.
@Suite struct ProcessTableTests {
    @Test func aNameWithSpacesAndParenthesesIsReadWhole() {
        let stat = "900 (tmux: server (x)) S 1 900 900 34821 900 4194560 0 0"
        let status = "Name:\ttmux: server\nUid:\t1000\t1000\t1000\t1000\n"
        let record = ProcessTable.parse(pid: 900, stat: stat, status: status)
        #expect(
            record
                == ProcessRecord(
                    pid: 900, parent: 1, session: 900, terminal: 34821, uid: 1000, name: "tmux: server (x)"))
    }

    @Test func thisProcessIsInTheTableWithItsRealUID() {
        let me = ProcessTable.record(pid: getpid())
        #expect(me?.uid == getuid())
        #expect(me?.parent == getppid())
        #expect(ProcessTable.read().contains { $0.pid == getpid() })
    }
}
