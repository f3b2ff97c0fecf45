import Foundation
import Glibc
import OTCPromptHost
import OTCPromptTestSupport
import Testing

@testable import OTCPromptProgram
@testable import OTCPromptTerminal

/// What one image of the password agent hands to the next when it renews itself: the terminal's attributes from
/// before raw mode, bracketed paste, and the directories' watch with the events queued on it.
@Suite struct AgentRenewalTests {
    static let proof = RenewalProof(descriptor: 9, nonce: "0123456789abcdef0123456789abcdef")

    @Test func theTerminalsAttributesAndPasteSurviveTheirEncoding() throws {
        var original = termios()
        original.c_lflag = tcflag_t(ECHO | ICANON | ISIG)
        original.c_cc.4 = 7
        let handed = AgentRenewal(
            original: original, bracketedPaste: true, watch: nil, watched: [true, false, true], proof: Self.proof)
        let taken = try #require(AgentRenewal.parse(handed.encoded))
        #expect(taken.bracketedPaste)
        #expect(taken.original.c_lflag == original.c_lflag)
        #expect(taken.original.c_cc.4 == 7)
        #expect(taken.watch == nil)
        #expect(taken.watched == [true, false, true])
        #expect(taken.hadWatched(0) && !taken.hadWatched(1) && !taken.hadWatched(7))
        #expect(taken.proof == Self.proof)
    }

    /// The value names its process: one set by hand, or another agent's, is no renewal of this one's.
    @Test func aRenewalForAnotherProcessIsNotTaken() throws {
        let other = try #require(RenewalProof.make())
        let forOther = AgentRenewal(
            original: termios(), bracketedPaste: true, watch: nil, watched: [], process: 1, proof: other)
        #expect(AgentRenewal.forThisProcess(forOther.encoded, executedAs: RenewalProof.executable) == nil)
        other.discard()
        let proof = try #require(RenewalProof.make())
        let own = AgentRenewal(original: termios(), bracketedPaste: true, watch: nil, watched: [true], proof: proof)
        #expect(AgentRenewal.forThisProcess(own.encoded, executedAs: RenewalProof.executable)?.watched == [true])
        #expect(fcntl(proof.descriptor, F_GETFD) == -1, "the proof's pipe is closed once read")
    }

    /// A hand-over is believed only from an image executed as /proc/self/exe, holding the pipe of the nonce it names.
    @Test func aRenewalWithoutItsProofIsNoRenewal() throws {
        func renewal(_ proof: RenewalProof?) -> String {
            AgentRenewal(original: termios(), bracketedPaste: false, watch: nil, watched: [true], proof: proof).encoded
        }
        #expect(AgentRenewal.forThisProcess(renewal(nil), executedAs: RenewalProof.executable) == nil)
        let notExecutedAsItself = try #require(RenewalProof.make())
        #expect(AgentRenewal.forThisProcess(renewal(notExecutedAsItself), executedAs: "/usr/bin/otc-prompt") == nil)
        #expect(fcntl(notExecutedAsItself.descriptor, F_GETFD) == -1, "closed all the same")
        let real = try #require(RenewalProof.make())
        let wrongNonce = RenewalProof(descriptor: real.descriptor, nonce: String(repeating: "a", count: 32))
        #expect(AgentRenewal.forThisProcess(renewal(wrongNonce), executedAs: RenewalProof.executable) == nil)
        let file = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(file) }
        let noPipe = RenewalProof(descriptor: file, nonce: real.nonce)
        #expect(AgentRenewal.forThisProcess(renewal(noPipe), executedAs: RenewalProof.executable) == nil)
        #expect(fcntl(file, F_GETFD) != -1, "a descriptor that is no pipe is left as it was")
        let standard = RenewalProof(descriptor: 0, nonce: real.nonce)
        #expect(AgentRenewal.forThisProcess(renewal(standard), executedAs: RenewalProof.executable) == nil)
    }

    @Test func aProofsPipeHoldsItsNonceAndIsLeftOpenAcrossAnExec() throws {
        let proof = try #require(RenewalProof.make())
        defer { proof.discard() }
        let another = try #require(RenewalProof.make())
        defer { another.discard() }
        #expect(proof.nonce.count == 32 && proof.nonce != another.nonce)
        #expect(fcntl(proof.descriptor, F_GETFD) & FD_CLOEXEC == 0)
        #expect(RenewalProof(Substring(proof.encoded)) == proof)
    }

    @Test func aMalformedRenewalIsNoRenewal() {
        let good = AgentRenewal(
            original: termios(), bracketedPaste: false, watch: nil, watched: [true], proof: Self.proof
        ).encoded
        let fields = good.split(separator: ":")
        let attributes = fields[5]
        let proof = fields[6]
        let malformed = [
            "", "2", "1" + good.dropFirst(), String(good.dropLast(2)), good + "00",
            "2:\(fields[1]):-:2:1:\(attributes):\(proof)", "2:\(fields[1]):-:0:x:\(attributes):\(proof)",
            "2:pid:-:0:1:\(attributes):\(proof)", "2:\(fields[1]):-:0:1:\(attributes):-",
            "2:\(fields[1]):-:0:1:\(attributes):9.0123", "1:\(fields[1]):-:0:1:\(attributes)",
            good.replacingOccurrences(of: "00", with: "zz"),
        ]
        for value in malformed {
            #expect(AgentRenewal.parse(value) == nil, "\(value.prefix(20))")
        }
    }

    @Test func aWatchDescriptorThatIsNoInotifyIsNotTaken() throws {
        let file = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(file) }
        let handed = AgentRenewal(
            original: termios(), bracketedPaste: false, watch: file, watched: [], proof: Self.proof
        ).encoded
        #expect(try #require(AgentRenewal.parse(handed)).watch == nil)
    }

    @Test func anAdoptedWatchDeliversWhatWasQueuedToTheSameDirectories() throws {
        let root = NSTemporaryDirectory() + "/otc-renewal-\(UUID().uuidString)"
        let paths = [root + "/a", root + "/b"]
        for path in paths { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        defer { try? FileManager.default.removeItem(atPath: root) }
        let first = try DirectoryWatch(paths: paths)
        try first.watch(0)
        try first.watch(1)
        close(open(paths[1] + "/ask.while-renewing", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600))
        let handed = AgentRenewal(
            original: termios(), bracketedPaste: false, watch: dup(first.descriptor), watched: [true, true],
            proof: Self.proof)
        let taken = try #require(AgentRenewal.parse(handed.encoded))
        let watch = try #require(taken.watch(covering: paths))
        let adopted = DirectoryWatch(adopting: watch, paths: paths)
        try adopted.watch(0)
        try adopted.watch(1)
        #expect(adopted.changes() == [.added(directory: 1, name: "ask.while-renewing")])
        #expect(fcntl(watch, F_GETFD) & FD_CLOEXEC != 0, "not handed on to what the agent starts")
    }

    @Test func aTerminalAdoptedInRawModeRestoresTheAttributesHandedOver() throws {
        let pty = try PseudoTerminal()
        var original = termios()
        #expect(tcgetattr(pty.slave, &original) == 0)
        let first = Terminal(input: pty.slave, output: pty.slave)
        try first.enterRawMode(bracketedPaste: false)
        let handoff = try #require(first.rawModeHandoff)
        let second = Terminal(input: pty.slave, output: pty.slave)
        second.adoptRawMode(original: handoff.original, bracketedPaste: handoff.bracketedPaste)
        second.restore()
        var after = termios()
        #expect(tcgetattr(pty.slave, &after) == 0)
        #expect(after.c_lflag == original.c_lflag && after.c_iflag == original.c_iflag)
    }

    /// A watch is taken over only when it watches every directory the agent watched, and nothing but those and the
    /// directories above them: one of other directories (or of none) would hide requests that came meanwhile, since a
    /// renewed agent does not read its directories again.
    @Test func aWatchOfOtherDirectoriesIsNotTakenOver() throws {
        let root = NSTemporaryDirectory() + "/otc-renewal-\(UUID().uuidString)"
        let paths = [root + "/a", root + "/b", root + "/c"]
        for path in paths { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        defer { try? FileManager.default.removeItem(atPath: root) }
        let other = try DirectoryWatch(paths: [paths[0], paths[2]])
        try other.watch(0)
        try other.watch(1)
        let handed = dup(other.descriptor)
        let renewal = AgentRenewal(
            original: termios(), bracketedPaste: false, watch: handed, watched: [true, true], proof: Self.proof)
        #expect(renewal.watch(covering: [paths[0], paths[1]]) == nil)
        #expect(fcntl(handed, F_GETFD) == -1, "closed, not leaked")
        let same = dup(other.descriptor)
        let good = AgentRenewal(
            original: termios(), bracketedPaste: false, watch: same, watched: [true, true], proof: Self.proof)
        #expect(good.watch(covering: [paths[2], paths[0]]) == same)
        close(same)
    }

    /// A hand-over says the terminal is raw; `reassertRawMode` checks: a cooked one is made raw, and what it was is
    /// what the end puts back, not the attributes handed over.
    @Test func aTerminalHandedOverCookedIsMadeRawAndPutBackAsItWas() throws {
        let pty = try PseudoTerminal()
        var cooked = termios()
        #expect(tcgetattr(pty.slave, &cooked) == 0)
        #expect(cooked.c_lflag & tcflag_t(ECHO) != 0)
        let terminal = Terminal(input: pty.slave, output: pty.slave)
        terminal.adoptRawMode(original: termios(), bracketedPaste: false)
        try terminal.reassertRawMode(bracketedPaste: false)
        var now = termios()
        #expect(tcgetattr(pty.slave, &now) == 0)
        #expect(now.c_lflag & tcflag_t(ECHO | ICANON) == 0, "raw now")
        terminal.restore()
        #expect(tcgetattr(pty.slave, &now) == 0)
        #expect(now.c_lflag == cooked.c_lflag && now.c_iflag == cooked.c_iflag, "put back as found, not all zero")
    }

    @Test func aPlaceWhoseReturnIsAwaitedIsHandedOverAsAwaited() throws {
        let handed = AgentRenewal(
            original: termios(), bracketedPaste: false, watch: nil, watched: [true, false, false],
            awaited: [false, true, false], proof: Self.proof)
        let taken = try #require(AgentRenewal.parse(handed.encoded))
        #expect(taken.watched == [true, false, false] && taken.awaited == [false, true, false])
        #expect(taken.hadWatched(0) && !taken.hadWatched(1) && taken.hadAwaited(1) && !taken.hadAwaited(2))
    }
}
