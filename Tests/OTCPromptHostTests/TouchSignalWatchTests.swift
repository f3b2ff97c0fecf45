import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

@testable import OTCPromptHost

/// The touch watcher's door on a runtime directory of the test's own: pam_u2f's pending file opened, closed, removed
/// and made again; a detector's socket listening, sending, gone and back; and what is not believed.
@Suite struct TouchSignalWatchTests {
    /// A fresh 0700 directory, removed by `defer` in each test.
    static func directory() -> String {
        let path = NSTemporaryDirectory() + "/otc-touch-\(UUID().uuidString.prefix(8))"
        mkdir(path, 0o700)
        return path
    }

    /// Everything the watch reports until `condition` holds for it, waiting on its descriptors (at most 5 s).
    static func happenings(
        _ watch: TouchSignalWatch, until condition: ([TouchSignalWatch.Happening]) -> Bool
    ) -> [TouchSignalWatch.Happening] {
        var seen: [TouchSignalWatch.Happening] = []
        let end = ContinuousClock.now + .seconds(5)
        let signals = SystemCalls.wakeUpPipeForTests()
        while !condition(seen) && ContinuousClock.now < end {
            _ = watch.wait(signals: signals, timeout: .milliseconds(100))
            seen += watch.happenings()
        }
        close(signals)
        return seen
    }

    @Test func thePendingFileOpenedClosedRemovedAndMadeAgainIsReportedEachTime() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let watch = try TouchSignalWatch(directory: directory)
        let path = directory + "/" + TouchSignalWatch.pendingFileName
        // pam_u2f's first wait makes the file by opening it.
        var file = open(path, O_RDONLY | O_CREAT | O_CLOEXEC, 0o600)
        #expect(Self.happenings(watch) { $0.contains(.pendingFileCreated) } == [.pendingFileCreated])
        close(file)
        #expect(Self.happenings(watch) { !$0.isEmpty } == [.pendingFileClosed])
        file = open(path, O_RDONLY | O_CREAT | O_CLOEXEC, 0o600)
        close(file)
        #expect(Self.happenings(watch) { $0.count >= 2 } == [.pendingFileOpened, .pendingFileClosed])
        unlink(path)
        #expect(Self.happenings(watch) { !$0.isEmpty } == [.pendingFileForgotten])
        // Made and closed before the watch could be put on it: the close is not seen, only the making (which the
        // program therefore takes as a wait that began and ended at once).
        file = open(path, O_RDONLY | O_CREAT | O_CLOEXEC, 0o600)
        close(file)
        #expect(Self.happenings(watch) { !$0.isEmpty } == [.pendingFileCreated])
        file = open(path, O_RDONLY | O_CREAT | O_CLOEXEC, 0o600)
        close(file)
        #expect(Self.happenings(watch) { $0.count >= 2 } == [.pendingFileOpened, .pendingFileClosed])
    }

    @Test func theDetectorsBytesArriveAndItsRestartIsFollowedWithoutPolling() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/" + TouchSignalWatch.detectorSocketName
        var detector = try StandInTouchDetector(path: path)
        let watch = try TouchSignalWatch(directory: directory)
        #expect(detector.accept())
        #expect(watch.happenings() == [.detectorConnected])
        detector.send("U2F_1")
        #expect(Self.happenings(watch) { !$0.isEmpty } == [.detectorBytes(Array("U2F_1".utf8))])
        detector.stop()
        #expect(Self.happenings(watch) { $0.contains(.detectorLost) } == [.detectorLost])
        #expect(!watch.detectorIsConnected)
        // Back: seen from the directory, which reports the socket made again.
        detector = try StandInTouchDetector(path: path)
        #expect(Self.happenings(watch) { $0.contains(.detectorConnected) } == [.detectorConnected])
        #expect(detector.accept())
        detector.send("GPG_1GPG_0")
        let bytes = Self.happenings(watch) { $0.flatMap(\.bytes).count >= 10 }.flatMap(\.bytes)
        #expect(bytes == Array("GPG_1GPG_0".utf8))
        detector.stop()
    }

    @Test func aLinkInThePendingFilesPlaceIsNotBelieved() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let target = directory + "/elsewhere"
        close(open(target, O_RDONLY | O_CREAT | O_CLOEXEC, 0o600))
        let watch = try TouchSignalWatch(directory: directory)
        symlink(target, directory + "/" + TouchSignalWatch.pendingFileName)
        let seen = Self.happenings(watch) { !$0.isEmpty }
        #expect(seen.count == 1)
        guard case .refused(let why) = seen.first else { return #expect(Bool(false), "\(seen)") }
        #expect(why.contains(TouchSignalWatch.pendingFileName))
        #expect(!watch.pendingFileIsWatched)
        // Opened through the link: nothing. The link's removal after it is the barrier: reported, and alone.
        close(open(target, O_RDONLY | O_CLOEXEC))
        unlink(directory + "/" + TouchSignalWatch.pendingFileName)
        #expect(Self.happenings(watch) { !$0.isEmpty } == [.pendingFileForgotten])
    }

    @Test func aRuntimeDirectoryOthersMayWriteIsRefused() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        chmod(directory, 0o777)
        #expect(throws: HostError.self) { try TouchSignalWatch(directory: directory) }
    }
}

extension TouchSignalWatch.Happening {
    fileprivate var bytes: [UInt8] { if case .detectorBytes(let bytes) = self { bytes } else { [] } }
}

extension SystemCalls {
    /// The read end of a pipe no one writes: a signal pipe that never fires.
    static func wakeUpPipeForTests() -> Int32 {
        var ends: [Int32] = [0, 0]
        _ = pipe(&ends)
        close(ends[1])
        return ends[0]
    }
}
