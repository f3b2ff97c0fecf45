import Glibc
import OTCPromptCore
import OTCPromptSystem
import Testing

@testable import OTCPromptProgram

/// Whose audio server the voice may use: the routes decided before any probe, and another user's PulseAudio refused
/// from the evidence of its socket (owner and directory), never from the variables that name it.
@Suite struct SpeechRouteProbesTests {
    /// A directory of the test's own holding a socket `native`, both owned by `owner`.
    final class Server {
        let directory: String
        var socket: String { directory + "/native" }
        private let descriptor: Int32
        init(owner: uid_t) throws {
            var template = Array("/tmp/otc-route-XXXXXX".utf8CString)
            let made = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) })
            directory = String(cString: made)
            descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            let address = try #require(UnixSocketAddress(path: directory + "/native"))
            try #require(address.withSocketAddress { bind(descriptor, $0, $1) } == 0)
            try #require(chown(directory + "/native", owner, owner) == 0 && chown(directory, owner, owner) == 0)
        }
        deinit {
            close(descriptor)
            unlink(socket)
            rmdir(directory)
        }
    }

    /// A terminal whose login session tells nothing: only the rules above it decide.
    static let here = SpeechRouteProbes.PromptTerminal.located(SessionLocation(.unknown, evidence: ""))

    @Test func anAudioFileOrTheUsersChoiceNeedsNoProbe() {
        let environment = ["SSH_CONNECTION": "10.0.0.1 1 10.0.0.2 22"]
        #expect(
            SpeechRouteProbes.decidedAtOnce(
                for: .auto, intoAudioFile: true, environment: environment, terminal: Self.here)?.reason == SpeechRoute.intoAudioFile.reason)
        #expect(
            SpeechRouteProbes.decidedAtOnce(
                for: .text, intoAudioFile: false, environment: environment, terminal: Self.here)?.kind == .text)
    }

    @Test func theUsersOwnPulseAudioIsKept() throws {
        let server = try Server(owner: getuid())
        let route = SpeechRouteProbes.decidedAtOnce(
            for: .espeak, intoAudioFile: false, environment: ["PULSE_SERVER": "unix:" + server.socket],
            terminal: Self.here)
        #expect(route?.kind == .espeak, "\(String(describing: route))")
    }

    @Test(.enabled(if: getuid() == 0, "needs root to give the socket to another user"))
    func anotherUsersPulseAudioIsRefusedAndTheVoiceBecomesTextSayingWhy() throws {
        let server = try Server(owner: 65534)
        let route = try #require(
            SpeechRouteProbes.decidedAtOnce(
                for: .espeak, intoAudioFile: false, environment: ["PULSE_SERVER": "unix:" + server.socket],
                terminal: Self.here))
        #expect(route.kind == .text)
        #expect(route.reason.contains("the PulseAudio at \(server.socket) is refused"), "\(route.reason)")
    }
}
