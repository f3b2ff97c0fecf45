// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc
import Testing

@testable import OTCPromptTestSupport

/// A test run killed by a signal says who sent it, instead of stopping without a word.
@Suite struct FatalSignalReportTests {
    @Test func theLineNamesTheSignalAndTheSendersCommandLine() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        FatalSignalReport.report(SIGTERM, from: getpid(), to: ends[1])
        close(ends[1])
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = read(ends[0], &buffer, buffer.count)
        let line = String(decoding: buffer[..<max(count, 0)], as: UTF8.self)
        let arguments = CommandLine.arguments.joined(separator: " ")
        #expect(line.hasPrefix("otc-prompt tests: the test process got signal 15 from pid \(getpid()): "), "\(line)")
        #expect(line.contains(String(arguments.prefix(100))), "\(line)")
        #expect(line.hasSuffix("\n") && line.filter { $0 == "\n" }.count == 1)
    }

    @Test func aSenderAlreadyGoneIsAQuestionMark() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        FatalSignalReport.report(SIGHUP, from: 0, to: ends[1])
        close(ends[1])
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(ends[0], &buffer, buffer.count)
        #expect(
            String(decoding: buffer[..<max(count, 0)], as: UTF8.self)
                == "otc-prompt tests: the test process got signal 1 from pid 0: ?\n")
    }

    /// In a process of its own (an exit test): the report is written, then the signal still ends the process.
    @Test func theSignalStillEndsTheProcessAfterItsReport() async {
        await #expect(processExitsWith: .signal(SIGTERM), observing: [\.standardErrorContent]) {
            FatalSignalReport.install()
            kill(getpid(), SIGTERM)
            sleep(10)
        }.map { result in
            let text = String(decoding: result.standardErrorContent, as: UTF8.self)
            // The exit test's own process sent it, so the line names the test binary.
            #expect(text.contains("the test process got signal 15 from pid "), "\(text)")
            #expect(text.contains("PackageTests"), "\(text)")
        }
    }
}

/// A stuck program's threads, described for a failure message.
@Suite struct ThreadStatesTests {
    @Test func everyThreadIsNamedWithItsStateAndWhereItWaits() {
        let described = ThreadStates.describe(getpid())
        #expect(described.contains("\(getpid()) "), "\(described)")
        #expect(described.contains(" state R") || described.contains(" state S"), "\(described)")
        #expect(described.contains("syscall "), "\(described)")
        #expect(described.contains("SigBlk ") && described.contains("ShdPnd "), "\(described)")
        #expect(described.contains("; load ") && described.contains("pressure cpu "), "\(described)")
    }

    @Test func theProgramsOfAUserAreFoundByName() throws {
        let child = try PseudoTerminalProcess(executable: "/bin/sleep", arguments: ["30"])
        defer { child.sendSignal(SIGKILL) }
        // The child is started before it has run sleep: until its exec, it has the test process's name.
        let named = child.wait(deadline: .seconds(20)) { child in
            (try? String(contentsOfFile: "/proc/\(child.processID)/comm", encoding: .utf8)) == "sleep\n"
        }
        try #require(named)
        let described = ThreadStates.describe(programsNamed: "sleep", uid: getuid())
        #expect(described.contains("sleep \(child.processID): "), "\(described)")
        #expect(ThreadStates.describe(programsNamed: "no-such-program", uid: getuid()).hasPrefix("no no-such-program"))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb"), "needs gdb"))
    func aStuckChildsBacktracesComeFromGdb() throws {
        let child = try PseudoTerminalProcess(executable: "/bin/sleep", arguments: ["30"])
        defer { child.sendSignal(SIGKILL) }
        let backtraces = try #require(ThreadStates.backtraces(child.processID))
        #expect(backtraces.contains("#0 "), "\(backtraces)")
    }

    @Test func aProcessThatHasEndedSaysSo() {
        #expect(ThreadStates.describe(999_999_999) == "no /proc/999999999: it has ended")
    }
}
