import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// `--doctor` asks brltty for the display's size and driver through libbrlapi, whose waits have no deadline: a server
/// that accepts and never answers (stopped, stuck, still starting) must cost the report a second, not its end.
@Suite(
    .runsPrograms,
    .enabled(
        if: PrivateBrltty.isInstalled,
        "needs brltty (its Virtual driver), libbrlapi0.8 and setpriv: apt-get install brltty libbrlapi0.8"))
struct BrailleDoctorEndToEndTests {
    @Test func aBrlAPIServerThatNeverAnswersCostsTheDoctorASecondAndIsSaid() async throws {
        let server = try #require(SilentBrlAPIPort(), "no BrlAPI port free on 127.0.0.1")
        defer { close(server.listener) }
        let doctor = try PseudoTerminalProcess(
            executable: PromptRun.binary, arguments: ["--doctor", "--speech", "none"],
            environment: PromptRun.environment(["BRLAPI_HOST": "127.0.0.1:\(server.number)", "BRLAPI_AUTH": "none"]))
        #expect(await doctor.waitForExit(deadline: .seconds(20)) == .exited(0), "\(doctor.stuckReport)")
        let report = doctor.standardOutput
        #expect(report.contains("Braille: BrlAPI at 127.0.0.1 port \(server.port), because your own"), "\(report)")
        #expect(
            report.contains(
                "Braille display: not reached: the BrlAPI server at 127.0.0.1 port \(server.port) did not answer "
                    + "within 1 s."), "\(report)")
    }
}

/// A BrlAPI server's TCP port on 127.0.0.1 (4101 + its number) that listens and never accepts: the kernel completes
/// a client's connection, and nothing is ever sent on it.
private struct SilentBrlAPIPort {
    let listener: Int32
    let number: Int

    var port: Int { 4101 + number }

    init?() {
        for number in 60..<100 {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else { return nil }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(4101 + number).bigEndian)
            address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if bound == 0, listen(descriptor, 16) == 0 {
                listener = descriptor
                self.number = number
                return
            }
            close(descriptor)
        }
        return nil
    }
}
