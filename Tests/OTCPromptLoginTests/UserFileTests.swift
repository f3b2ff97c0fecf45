import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

extension RealClientTests {
    /// `--speech-log` and `--audio-file` leave a user's files as they are. The device is a
    /// character device made by mknod in the test's directory (the null device's numbers), never /dev/null.
    @Suite(.serialized) struct UserFiles {
        enum Output: String, CaseIterable, CustomTestStringConvertible {
            case speechLog = "--speech-log"
            case audioFile = "--audio-file"
            var testDescription: String { rawValue }
        }

        /// Major 1, minor 3 (the null device), encoded as glibc's makedev does.
        static let nullDeviceNumber: dev_t = (1 << 8) | 3

        /// Whether a device node made in the temporary directory can be opened (not on a nodev mount).
        static let deviceNodesWork: Bool = {
            guard runningAsRoot, let scratch = try? ScratchDirectory() else { return false }
            let device = scratch.file("probe")
            guard mknod(device, S_IFCHR | 0o600, nullDeviceNumber) == 0 else { return false }
            let descriptor = open(device, O_WRONLY | O_CLOEXEC)
            if descriptor >= 0 { close(descriptor) }
            return descriptor >= 0
        }()

        let scratch: ScratchDirectory

        let runtime: String

        init() throws {
            scratch = try ScratchDirectory()
            runtime = try scratch.runtimeDirectory()
        }

        /// Runs the prompt with `output PATH`, types a code once it asks, and returns how it ended and what
        /// it showed (a refusal ends it before it asks).
        func runPrompt(_ output: Output, path: String) throws -> (status: ExitStatus?, screen: String) {
            var arguments = ["--speech", "none", output.rawValue, path]
            if output == .audioFile { arguments += ["--rate", "450"] }
            let process = try PseudoTerminalProcess(
                executable: Askpass.binary, arguments: arguments,
                environment: ClientRun.environment([
                    "HOME": scratch.path, "XDG_RUNTIME_DIR": runtime, "XDG_CONFIG_HOME": scratch.file("none"),
                ]))
            let asked = waitUntil(deadline: .seconds(10)) {
                process.screen.contains("Verification code") || process.waitForExit(deadline: .zero) != nil
            }
            if asked, process.waitForExit(deadline: .zero) == nil {
                pause(ClientRun.reactionTime)
                process.type("123456")
            }
            let status = process.waitForExit(deadline: .seconds(20))
            #expect(process.attributesAtStart.bytes == process.slaveAttributes().bytes)
            return (status, visibleText(process.screen))
        }

        func status(_ path: String) -> stat {
            var information = stat()
            lstat(path, &information)
            return information
        }

        @Test(
            .enabled(if: deviceNodesWork, "the temporary directory cannot hold a working device node (nodev)"),
            arguments: Output.allCases)
        func aCharacterDeviceKeepsItsTypeModeAndOwner(_ output: Output) async throws {
            let device = scratch.file("null")
            try #require(mknod(device, S_IFCHR | 0o666, Self.nullDeviceNumber) == 0, "mknod: \(errno)")
            chmod(device, 0o666)  // the umask took bits away
            #expect(try runPrompt(output, path: device).status == .exited(0))
            let after = status(device)
            #expect(after.st_mode & S_IFMT == S_IFCHR)
            #expect(after.st_mode & 0o7777 == 0o666, "mode now \(String(after.st_mode & 0o7777, radix: 8))")
            #expect(after.st_uid == 0 && after.st_gid == 0)
            #expect(after.st_rdev == Self.nullDeviceNumber)
        }

        @Test(arguments: Output.allCases)
        func anExistingFileKeepsItsMode(_ output: Output) async throws {
            let path = try scratch.write("existing", "", mode: 0o640)
            #expect(try runPrompt(output, path: path).status == .exited(0))
            let after = status(path)
            #expect(after.st_mode & 0o7777 == 0o640, "mode now \(String(after.st_mode & 0o7777, radix: 8))")
            #expect(after.st_size > 0, "nothing was written")
        }

        @Test(arguments: Output.allCases)
        func aNewFileIsCreatedReadableByItsOwnerOnly(_ output: Output) async throws {
            let path = scratch.file("new")
            #expect(try runPrompt(output, path: path).status == .exited(0))
            #expect(status(path).st_mode & 0o7777 == 0o600)
        }

        @Test(arguments: Output.allCases)
        func aSymbolicLinkIsNotFollowed(_ output: Output) async throws {
            let target = try scratch.write("target", "untouched\n", mode: 0o644)
            let link = scratch.file("link")
            try #require(symlink(target, link) == 0)
            let (exit, screen) = try runPrompt(output, path: link)
            #expect(exit != .exited(0) && exit != nil, "a link was written through; screen: \(screen)")
            #expect(screen.contains(link), "the refusal names the path: \(screen)")
            #expect(try String(contentsOfFile: target, encoding: .utf8) == "untouched\n")
            #expect(status(target).st_mode & 0o7777 == 0o644)
            #expect(status(link).st_mode & S_IFMT == S_IFLNK)
        }
    }
}
