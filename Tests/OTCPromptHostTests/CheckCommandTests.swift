import OTCPromptCore
import Testing

@testable import OTCPromptHost

#if canImport(Glibc)
    import Glibc
#endif

/// Waits for the check as the prompt loop does: poll(2) on its descriptor, then `poll()`; gives up at `seconds`.
private func result(of check: CheckCommand, within seconds: Int = 10) -> CheckVerdict? {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(seconds))
    while clock.now < deadline {
        if let result = check.poll() { return result }
        var ready = pollfd(fd: check.descriptor, events: Int16(POLLIN), revents: 0)
        _ = Glibc.poll(&ready, 1, 50)
    }
    return nil
}

/// The processes of group `group` that are still alive (zombies waiting for init do not count).
private func livingMembers(ofGroup group: pid_t) -> [pid_t] {
    guard let directory = opendir("/proc") else { return [] }
    defer { closedir(directory) }
    var members: [pid_t] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) {
            String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        guard let pid = pid_t(name) else { continue }
        guard let stat = try? ConfigFile.readText(path: "/proc/\(pid)/stat"),
            let close = stat.lastIndex(of: ")")
        else { continue }
        // After "(comm)": state, ppid, pgrp.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        if fields.count > 2, fields[0] != "Z", pid_t(fields[2]) == group { members.append(pid) }
    }
    return members
}

@Suite struct CheckCommandTests {
    @Test func exitZeroAccepts() throws {
        let check = try CheckCommand.start(command: "exit 0", input: "123456")
        #expect(result(of: check) == .accepted)
        #expect(check.firstErrorLine == nil)
    }

    @Test func nonZeroExitRejectsWithItsStatus() throws {
        let check = try CheckCommand.start(command: "exit 3", input: "123456")
        #expect(result(of: check) == .rejected(status: 3))
    }

    @Test func theCodeArrivesOnStandardInputFollowedByANewline() throws {
        let right = try CheckCommand.start(command: "read c; [ \"$c\" = 123456 ]", input: "123456")
        #expect(result(of: right) == .accepted)
        let wrong = try CheckCommand.start(command: "read c; [ \"$c\" = 123456 ]", input: "654321")
        #expect(result(of: wrong) == .rejected(status: 1))
        // Exactly the code's bytes and one newline: "42\n" is 34 32 0a.
        let exact = try CheckCommand.start(command: "[ \"$(od -An -tx1 | tr -d ' \\n')\" = 34320a ]", input: "42")
        #expect(result(of: exact) == .accepted)
    }

    @Test func theCodeIsInNeitherArgvNorTheEnvironment() throws {
        // The shell looks for the code it read in its own /proc entries, which is what `ps` shows others.
        let command = """
            read c
            if tr '\\0' '\\n' < /proc/$$/cmdline | grep -q "$c"; then echo "code in argv" >&2; exit 1; fi
            if tr '\\0' '\\n' < /proc/$$/environ | grep -q "$c"; then echo "code in environment" >&2; exit 1; fi
            """
        let check = try CheckCommand.start(command: command, input: "918273")
        #expect(result(of: check) == .accepted)
        #expect(check.firstErrorLine == nil)
    }

    @Test func theCommandsStdoutGoesToDevNull() throws {
        let check = try CheckCommand.start(
            command:
                "echo LEAK; target=$(readlink /proc/$$/fd/1); [ \"$target\" = /dev/null ] || { echo \"stdout is $target\" >&2; exit 1; }",
            input: "1")
        #expect(result(of: check) == .accepted)
        #expect(check.firstErrorLine == nil)
    }

    @Test func theFirstLineOfStderrIsKept() throws {
        let check = try CheckCommand.start(
            command: "printf '\\n  \\n' >&2; echo 'bad code \u{1B}[31m(expired)' >&2; echo second line >&2; exit 1",
            input: "000000")
        #expect(result(of: check) == .rejected(status: 1))
        #expect(check.firstErrorLine == "bad code \\x1B[31m(expired)")
    }

    @Test func aLongErrorLineIsCutAndTheRestDrained() throws {
        let check = try CheckCommand.start(
            command: "head -c 300000 /dev/zero | tr '\\0' x >&2; exit 2", input: "1")
        #expect(result(of: check) == .rejected(status: 2))
        #expect(check.firstErrorLine?.count == 4096, "bounded, but long enough to match a masked code before the cut")
    }

    @Test func aHungCheckIsKilledWithItsWholeGroup() throws {
        let check = try CheckCommand.start(command: "sleep 60 & sleep 60; wait", input: "1")
        #expect(check.poll() == nil)
        check.kill()
        guard case .couldNotRun = check.poll() else {
            Issue.record("expected a signal, got \(String(describing: check.poll()))")
            return
        }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(5))
        while !livingMembers(ofGroup: check.processID).isEmpty, clock.now < deadline {
            var pause = timespec(tv_sec: 0, tv_nsec: 20_000_000)
            _ = nanosleep(&pause, nil)
        }
        #expect(livingMembers(ofGroup: check.processID).isEmpty)
    }

    @Test func afterStderrClosesTheDescriptorStopsBeingReady() throws {
        // A command that closes stderr and keeps running must not make the prompt loop spin on end of file.
        let check = try CheckCommand.start(command: "exec 2>&-; sleep 60", input: "1")
        defer { check.kill() }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(10))
        var ready = pollfd(fd: check.descriptor, events: Int16(POLLIN), revents: 0)
        while Glibc.poll(&ready, 1, 50) == 0, clock.now < deadline {}
        #expect(check.poll() == nil)
        ready.revents = 0
        #expect(Glibc.poll(&ready, 1, 0) == 0)
    }

    @Test func aBackgroundChildHoldingStderrDoesNotHideTheResult() throws {
        let check = try CheckCommand.start(command: "sleep 60 & exit 5", input: "1")
        #expect(result(of: check) == .rejected(status: 5))
        _ = Glibc.kill(-check.processID, SIGKILL)  // The sleep left behind in the check's group.
    }

    @Test func aCommandThatIgnoresALongInputDoesNotHurtUs() throws {
        let input = String(repeating: "7", count: 1_000_000)
        let check = try CheckCommand.start(command: "exit 0", input: input)
        #expect(result(of: check) == .accepted)
        // Still alive (no SIGPIPE), and a reader of the same input gets all of it.
        let reader = try CheckCommand.start(command: "[ \"$(wc -c)\" -eq 1000001 ]", input: input)
        #expect(result(of: reader) == .accepted)
    }

    @Test func theGivenEnvironmentReplacesOurs() throws {
        let check = try CheckCommand.start(
            command: "[ \"$OTC_CHECK_TEST\" = yes ] && [ -z \"$HOME\" ]", input: "1",
            environment: ["OTC_CHECK_TEST": "yes", "PATH": "/usr/bin:/bin"])
        #expect(result(of: check) == .accepted)
    }

    @Test func aStatusReapedElsewhereNeverAccepts() throws {
        let check = try CheckCommand.start(command: "exit 0", input: "1")
        var status: Int32 = 0
        #expect(waitpid(check.processID, &status, 0) == check.processID)  // Someone else's waitpid.
        #expect(result(of: check) == .rejected(status: CheckCommand.unknownStatus))
    }

    @Test func waitStatusesDecode() {
        #expect(CheckCommand.result(ofWaitStatus: 0) == .accepted)
        #expect(CheckCommand.result(ofWaitStatus: 3 << 8) == .rejected(status: 3))
        #expect(CheckCommand.result(ofWaitStatus: SIGKILL) == .killed(by: SIGKILL))
    }
}

@Suite struct CheckErrorLineTests {
    @Test func keepsOnlyTheFirstNonBlankLine() {
        var line = CheckErrorLine()
        line.append(Array("\n\nfirst".utf8))
        line.append(Array(" part\nsecond\n".utf8))
        #expect(line.line == "first part")
    }

    @Test func aCutMultibyteCharacterIsDropped() {
        var line = CheckErrorLine()
        let before = CheckErrorLine.limit - 1
        line.append(Array(String(repeating: "a", count: before).utf8) + Array("é".utf8))
        #expect(line.line == String(repeating: "a", count: before))
    }

    @Test func nothingWrittenIsNoLine() {
        var line = CheckErrorLine()
        line.append(Array(" \t\n".utf8))
        #expect(line.line == nil)
    }
}

/// `ConfigFile` lives beside `CheckCommand` in this branch; its tests too (a file of their own once merged).
@Suite struct ConfigFileTests {
    /// A new file in /tmp holding `bytes`; its path.
    private func temporaryFile(_ bytes: [UInt8]) -> String {
        var template = Array("/tmp/otc-config-test-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        precondition(fd >= 0, "mkstemp failed")
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    @Test func readsAFile() throws {
        let path = temporaryFile(Array("lang = \"pt\"\n".utf8))
        defer { unlink(path) }
        #expect(try ConfigFile.readText(path: path) == "lang = \"pt\"\n")
    }

    @Test func aMissingFileIsNil() throws {
        #expect(try ConfigFile.readText(path: "/nonexistent/otc-prompt/config") == nil)
        #expect(try ConfigFile.readText(path: "/etc/hostname/config") == nil)  // ENOTDIR: a file on the way.
    }

    @Test func devNullIsAnEmptyConfiguration() throws {
        #expect(try ConfigFile.readText(path: "/dev/null") == "")
    }

    /// Anything but a regular file (and /dev/null) is refused before a byte is read: a FIFO with or without
    /// a writer, an endless device, a terminal whose keys are the prompt's.
    @Test func aFIFOOrADeviceIsRefusedWithoutReadingIt() throws {
        let fifo = "/tmp/otc-config-fifo-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        try #require(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        #expect(throws: HostError.configFile("is a FIFO, not a regular file")) {
            try ConfigFile.readText(path: fifo)
        }
        let writer = open(fifo, O_RDWR | O_NONBLOCK)
        defer { close(writer) }
        _ = write(writer, "x = 1\n", 6)
        #expect(throws: HostError.configFile("is a FIFO, not a regular file")) {
            try ConfigFile.readText(path: fifo)
        }
        #expect(throws: HostError.configFile("is a device, not a regular file")) {
            try ConfigFile.readText(path: "/dev/zero")
        }
    }

    @Test func theBoundedReadGivesTheTextOrWhyAtOnce() throws {
        let path = temporaryFile(Array("lang = \"pt\"\n".utf8))
        defer { unlink(path) }
        guard case .finished(.success(let text)) = ConfigFile.read(path: path, signals: nil) else {
            Issue.record("not read")
            return
        }
        #expect(text == "lang = \"pt\"\n")
        guard case .finished(.failure(let error)) = ConfigFile.read(path: "/tmp", signals: nil) else {
            Issue.record("a directory was read")
            return
        }
        #expect(error == .configFile("is a directory, not a file"))
        #expect(ConfigFile.deadline == .seconds(1))
    }

    @Test func aDirectoryIsRefused() {
        #expect(throws: HostError.configFile("is a directory, not a file")) {
            try ConfigFile.readText(path: "/tmp")
        }
    }

    @Test func binaryOrHugeFilesAreRefused() {
        let binary = temporaryFile([0x6C, 0x61, 0xFF, 0xFE])
        defer { unlink(binary) }
        #expect(throws: HostError.configFile("is not UTF-8 text")) { try ConfigFile.readText(path: binary) }
        let huge = temporaryFile([UInt8](repeating: 0x23, count: ConfigFile.maximumSize + 1))
        defer { unlink(huge) }
        #expect(throws: HostError.self) { try ConfigFile.readText(path: huge) }
    }
}
