import Glibc
import OTCPromptCore
import Testing

@testable import OTCPromptHost

/// A child's `waitpid` status as the shell numbers it: its exit status, or the table's status for its signal.
@Suite struct ProcessEndTests {
    @Test(arguments: [Int32(0), 1, 64, 255])
    func anExitIsItsOwnStatus(status: Int32) {
        let end = ProcessEnd(waitStatus: status << 8)
        #expect(end == .exited(status))
        #expect(end.shellStatus == status)
    }

    @Test(arguments: [SIGHUP, SIGINT, SIGKILL, SIGTERM])
    func aSignalIsTheTablesStatusForIt(signal: Int32) {
        let end = ProcessEnd(waitStatus: signal)
        #expect(end == .killed(by: signal))
        #expect(end.shellStatus == OTCPromptCore.ExitStatus.signalled(signal))
        #expect(end.shellStatus == 128 + signal, "the shell's convention")
    }
}
