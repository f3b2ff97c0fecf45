import Glibc
import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptSystem
import OTCPromptTerminal
import Testing

@testable import OTCPromptProgram

/// The password agent's rules for whom it asks, on a real directory of requests: what is asked, what is skipped
/// silently as systemd's agents skip it, and what is refused and told once a reason.
@Suite struct AgentRequestsTests {
    /// A private directory of requests (0700, the user's), removed at the end.
    final class Place {
        let path: String
        private var sockets: [Int32] = []
        init() throws {
            var template = Array("/tmp/otc-agent-requests-XXXXXX".utf8CString)
            guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
                throw Failure("mkdtemp")
            }
            path = String(cString: made)
        }
        deinit {
            for socket in sockets { close(socket) }
            if let entries = opendir(path) {
                while let entry = readdir(entries) {
                    let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                    if name != "." && name != ".." { unlink(path + "/" + name) }
                }
                closedir(entries)
            }
            rmdir(path)
        }
        /// A querier's socket, bound at `name`: a request whose socket is gone was answered meanwhile.
        func bindSocket(_ name: String) throws {
            let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0, let address = UnixSocketAddress(path: path + "/" + name) else { throw Failure("socket") }
            sockets.append(descriptor)
            guard address.withSocketAddress({ bind(descriptor, $0, $1) }) == 0 else { throw Failure("bind \(name)") }
        }

        func write(_ name: String, _ text: String) throws {
            let descriptor = open(path + "/" + name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw Failure("open \(name)") }
            defer { close(descriptor) }
            let bytes = Array(text.utf8)
            guard Glibc.write(descriptor, bytes, bytes.count) == bytes.count else { throw Failure("write \(name)") }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    private static var now: UInt64 { UInt64(clamping: MonotonicInstant.now.nanoseconds / 1000) }

    private func requests(_ place: Place, told: @escaping (String) -> Void = { _ in }) throws -> AgentRequests {
        try #require(
            AgentRequests(
                places: [(path: place.path, owner: getuid())], renewal: nil, wording: Wording(language: .en),
                tell: told))
    }

    /// A request file's text; its socket in its own directory, as every request's must be.
    private func request(_ place: Place, pid: Int32, message: String, notAfter: UInt64? = nil) throws -> String {
        try place.bindSocket("sck.\(message)")
        var text = "[Ask]\nPID=\(pid)\nSocket=\(place.path)/sck.\(message)\nMessage=\(message)\n"
        if let notAfter { text += "NotAfter=\(notAfter)\n" }
        return text
    }

    @Test func aRequestWhoseProcessRunsIsAskedWithThatProcessWatchedAndItsOriginItsDirectorysOwner() throws {
        let place = try Place()
        try place.write("ask.live", try request(place, pid: getpid(), message: "Passphrase"))
        let candidate = try #require(try requests(place).next(atMicroseconds: Self.now))
        #expect(candidate.file.message == "Passphrase")
        // Only root can write in a directory of root's: its requests are the system's, any other's a user's claim.
        #expect(candidate.origin == (getuid() == 0 ? .system : .user))
        #expect(candidate.process == getpid())
        #expect(candidate.path == place.path + "/ask.live")
    }

    @Test func aRequestWhoseProcessIsGoneOrWhoseTimePassedIsSkippedWithoutAWord() throws {
        let place = try Place()
        try place.write("ask.gone", try request(place, pid: 999_999_999, message: "Gone"))
        try place.write("ask.late", try request(place, pid: getpid(), message: "Late", notAfter: 1))
        var told: [String] = []
        let requests = try requests(place) { told.append($0) }
        #expect(requests.next(atMicroseconds: Self.now) == nil)
        #expect(told.isEmpty, "\(told)")
        #expect(requests.takeNews().isEmpty)
    }

    @Test func filesThatAreNoRequestsAreToldOnceWithTheirCountAndTheRealOneIsStillAsked() throws {
        let place = try Place()
        for index in 0..<5 { try place.write("ask.bad\(index)", "not a request\n") }
        try place.write("ask.real", try request(place, pid: getpid(), message: "Real"))
        var told: [String] = []
        let requests = try requests(place) { told.append($0) }
        let candidate = try #require(requests.next(atMicroseconds: Self.now))
        #expect(candidate.file.message == "Real")
        #expect(requests.next(atMicroseconds: Self.now) == nil)
        let refused = told.filter { $0.contains("refused") }
        #expect(refused.count == 1, "\(told)")
        #expect(refused.first?.contains("5 requests refused") == true, "\(told)")
    }

    @Test func aValueOutOfRangeIsToldAsTheRequestIsAsked() throws {
        let place = try Place()
        try place.write("ask.odd", try request(place, pid: getpid(), message: "Odd") + "NotAfter=soon\n")
        var told: [String] = []
        let candidate = try #require(try requests(place) { told.append($0) }.next(atMicroseconds: Self.now))
        #expect(candidate.file.notAfter == nil, "no time limit taken")
        #expect(told.contains { $0.hasPrefix("otc-prompt: ask.odd: ") && $0.contains("NotAfter") }, "\(told)")
    }

    @Test func aRequestWhoseSocketIsElsewhereIsRefusedAndNeverAsked() throws {
        let place = try Place()
        try place.write("ask.away", "[Ask]\nPID=\(getpid())\nSocket=/tmp/sck.away\nMessage=Away\n")
        var told: [String] = []
        let requests = try requests(place) { told.append($0) }
        #expect(requests.next(atMicroseconds: Self.now) == nil)
        #expect(told == ["otc-prompt: ask.away refused: its socket is not in the same directory"], "\(told)")
    }

    @Test func aPlaceThatCannotBeTrustedIsNotWatched() throws {
        let place = try Place()
        chmod(place.path, 0o777)
        var told: [String] = []
        let requests = AgentRequests(
            places: [(path: place.path, owner: getuid())], renewal: nil, wording: Wording(language: .en),
            tell: { told.append($0) })
        #expect(requests == nil)
        #expect(told.contains { $0.hasPrefix("otc-prompt: not watching \(place.path)") }, "\(told)")
    }
}
