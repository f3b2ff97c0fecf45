// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptCore
import Testing

@testable import OTCPromptHost

@Suite struct OutputFileTests {
    private func temporaryPath(_ name: String) -> String {
        "/tmp/otc-prompt-test-\(getpid())-\(name)-\(UInt32.random(in: 0...UInt32.max))"
    }

    private func contents(of path: String) throws -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0, "cannot open \(path)")
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            try #require(count >= 0, "cannot read \(path)")
            if count == 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func speechLogAppendsWholeLinesAndIsPrivate() throws {
        let path = temporaryPath("log")
        defer { unlink(path) }
        let log = try SpeechLogFile(path: path)
        #expect(log.append(line: #"{"event": "prompt"}"#))
        #expect(try contents(of: path) == "{\"event\": \"prompt\"}\n", "written at once, before the log is closed")
        #expect(log.append(line: #"{"event": "digit"}"#))
        #expect(try contents(of: path) == "{\"event\": \"prompt\"}\n{\"event\": \"digit\"}\n")
        var status = stat()
        #expect(stat(path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
    }

    @Test func speechLogAppendsToAnExistingFile() throws {
        let path = temporaryPath("existing")
        defer { unlink(path) }
        try SpeechLogFile(path: path).append(line: "first")
        try SpeechLogFile(path: path).append(line: "second")
        #expect(try contents(of: path) == "first\nsecond\n")
    }

    @Test func anUnwritableSpeechLogSaysWhatToDo() throws {
        let path = "/nonexistent-directory-\(getpid())/log.jsonl"
        let error = HostError.outputFile(path: path, option: "--speech-log", .noSuchFileOrDirectory)
        #expect(throws: error) { try SpeechLogFile(path: path) }
        #expect(error.description.contains(path) && error.description.contains("--speech-log"))
        #expect(!error.description.contains("\n"))
    }

    private func mode(of path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode : 0
    }

    /// An existing file keeps its mode; its contents are replaced or appended to.
    @Test(arguments: [true, false])
    func anExistingFileKeepsItsMode(appending: Bool) throws {
        let path = temporaryPath("mode")
        defer { unlink(path) }
        let created = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        #expect(write(created, "old\n", 4) == 4)
        close(created)
        chmod(path, 0o644)  // our own file: past the umask
        let file = try OutputFile.open(path: path, option: "--audio-file", appending: appending)
        #expect(file.isRegularFile)
        #expect(write(file.descriptor, "new\n", 4) == 4)
        close(file.descriptor)
        #expect(mode(of: path) & 0o7777 == 0o644)
        #expect(try contents(of: path) == (appending ? "old\nnew\n" : "new\n"))
    }

    @Test func aNewFileIsPrivate() throws {
        let path = temporaryPath("new")
        defer { unlink(path) }
        close(try OutputFile.open(path: path, option: "--audio-file", appending: false).descriptor)
        #expect(mode(of: path) & 0o777 == 0o600)
    }

    /// A character device made in a temporary directory (never the real /dev/null): written as it is.
    @Test(.enabled(if: getuid() == 0, "mknod needs root (CI runs as root)"))
    func aDeviceIsWrittenAsItIsNeverChangedOrTruncated() throws {
        let path = temporaryPath("null")
        #expect(mknod(path, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0)  // 1:3, what /dev/null is
        defer { unlink(path) }
        chmod(path, 0o666)
        for appending in [true, false] {
            let file = try OutputFile.open(path: path, option: "--speech-log", appending: appending)
            #expect(!file.isRegularFile)
            #expect(write(file.descriptor, "x", 1) == 1)
            close(file.descriptor)
        }
        #expect(mode(of: path) == S_IFCHR | 0o666)
    }

    @Test func aFIFOWithoutAReaderIsAnErrorAtOnceNotAHang() throws {
        let path = temporaryPath("fifo")
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let error = HostError.outputFile(path: path, option: "--speech-log", .noSuchAddressOrDevice)
        #expect(throws: error) { try OutputFile.open(path: path, option: "--speech-log", appending: true) }
        #expect(error.description.contains("no program is reading"))
        #expect(mode(of: path) & 0o777 == 0o600)
    }

    @Test func aSymbolicLinkIsNeverFollowed() throws {
        let target = temporaryPath("target")
        let link = temporaryPath("link")
        defer {
            unlink(link)
            unlink(target)
        }
        #expect(symlink(target, link) == 0)
        #expect(throws: HostError.outputFile(path: link, option: "--audio-file", .tooManySymbolicLinkLevels)) {
            try OutputFile.open(path: link, option: "--audio-file", appending: false)
        }
        #expect(access(target, F_OK) != 0, "nothing created through the link")
    }

    @Test func noTerminalIsOneLineThatSaysWhatToDo() {
        let message = HostError.noTerminal.description
        #expect(message.hasPrefix("no terminal to prompt on: ") && !message.contains("\n"))
    }

    @Test func environmentIsReadAsAValue() {
        setenv("OTC_PROMPT_TEST_VARIABLE", "a=b", 1)
        defer { unsetenv("OTC_PROMPT_TEST_VARIABLE") }
        #expect(ProcessEnvironment.current["OTC_PROMPT_TEST_VARIABLE"] == "a=b")
    }

    @Test func aSmallBufferCanBeLockedInMemory() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 16)
        defer { buffer.deallocate() }
        #expect(ProcessHardening.lockInMemory(UnsafeRawBufferPointer(buffer)))
        munlock(buffer.baseAddress, buffer.count)
    }

    @Test func coreDumpsAreDisabled() {
        ProcessHardening.disableCoreDumps()
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &limit)
        #expect(limit.rlim_cur == 0 && limit.rlim_max == 0)
        typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
        let prctl = unsafeBitCast(dlsym(nil, "prctl"), to: Prctl.self)
        #expect(prctl(3, 0, 0, 0, 0) == 0)  // PR_GET_DUMPABLE
    }
}
