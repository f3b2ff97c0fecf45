import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

@testable import OTCPromptTerminal

/// What one image of the password agent hands to the next when it renews itself: the terminal's attributes from
/// before raw mode, bracketed paste, and the directories' watch with the events queued on it.
@Suite struct AgentRenewalTests {
    @Test func theTerminalsAttributesAndPasteSurviveTheirEncoding() throws {
        var original = termios()
        original.c_lflag = tcflag_t(ECHO | ICANON | ISIG)
        original.c_cc.4 = 7
        let handed = AgentRenewal(original: original, bracketedPaste: true, watch: nil, watched: [true, false, true])
        let taken = try #require(AgentRenewal.parse(handed.encoded))
        #expect(taken.bracketedPaste)
        #expect(taken.original.c_lflag == original.c_lflag)
        #expect(taken.original.c_cc.4 == 7)
        #expect(taken.watch == nil)
        #expect(taken.watched == [true, false, true])
        #expect(taken.hadWatched(0) && !taken.hadWatched(1) && !taken.hadWatched(7))
    }

    /// The value names its process: one set by hand, or another agent's, is no renewal of this one's.
    @Test func aRenewalForAnotherProcessIsNotTaken() throws {
        let other = AgentRenewal(original: termios(), bracketedPaste: true, watch: nil, watched: [], process: 1)
        #expect(AgentRenewal.forThisProcess(other.encoded) == nil)
        let own = AgentRenewal(original: termios(), bracketedPaste: true, watch: nil, watched: [true])
        #expect(AgentRenewal.forThisProcess(own.encoded)?.watched == [true])
    }

    @Test func aMalformedRenewalIsNoRenewal() {
        let good = AgentRenewal(original: termios(), bracketedPaste: false, watch: nil, watched: [true]).encoded
        let fields = good.split(separator: ":")
        let attributes = fields[5]
        let malformed = [
            "", "1", "2" + good.dropFirst(), String(good.dropLast(2)), good + "00",
            "1:\(fields[1]):-:2:1:" + attributes, "1:\(fields[1]):-:0:x:" + attributes, "1:pid:-:0:1:" + attributes,
            good.replacingOccurrences(of: "00", with: "zz"),
        ]
        for value in malformed {
            #expect(AgentRenewal.parse(value) == nil, "\(value.prefix(20))")
        }
    }

    @Test func aWatchDescriptorThatIsNoInotifyIsNotTaken() throws {
        let file = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(file) }
        let handed = AgentRenewal(original: termios(), bracketedPaste: false, watch: file, watched: []).encoded
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
            original: termios(), bracketedPaste: false, watch: dup(first.descriptor), watched: [true, true])
        let taken = try #require(AgentRenewal.parse(handed.encoded))
        let watch = try #require(taken.watch)
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

    @Test func aPlaceWhoseReturnIsAwaitedIsHandedOverAsAwaited() throws {
        let handed = AgentRenewal(
            original: termios(), bracketedPaste: false, watch: nil, watched: [true, false, false],
            awaited: [false, true, false])
        let taken = try #require(AgentRenewal.parse(handed.encoded))
        #expect(taken.watched == [true, false, false] && taken.awaited == [false, true, false])
        #expect(taken.hadWatched(0) && !taken.hadWatched(1) && taken.hadAwaited(1) && !taken.hadAwaited(2))
    }
}
