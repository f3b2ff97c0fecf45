import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// The built binary loads libespeak-ng, libpcaudio and libpulse with dlopen when speech starts:
/// never in a run that does not speak, and a library that cannot be used is a reason said once, with text
/// announcements, not a crash. The libraries are made unusable without touching the system: stubs of the
/// same sonames, compiled here with gcc, in a directory named by LD_LIBRARY_PATH, which the loader searches
/// first. Each stub lacks every function otc-prompt needs and, when loaded, appends its name to a marker
/// file, so a test also sees whether it was loaded at all.
@Suite(
    .runsPrograms, .serialized, .enabled(if: StubSpeechLibraries.compilerInstalled, "needs gcc (make test installs it)")
)
struct SpeechLibrariesEndToEndTests {
    @Test func aBrokenLibespeakNGIsSaidOnceAndTheAnnouncementsBecomeTextLines() async throws {
        let stubs = try StubSpeechLibraries()
        defer { stubs.remove() }
        let run = try await PromptRun([], environment: stubs.environment(), speech: "espeak")
        #expect(
            await run.process.waitForScreen(containing: "libespeak-ng.so.1 cannot be loaded", deadline: .seconds(5)),
            "screen: \(run.process.screen)")
        run.type("123456")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "123456\n")
        let screen = run.process.screen
        #expect(screen.contains("(install libespeak-ng1)"))
        #expect(screen.contains("it has no function espeak_Initialize"))
        #expect(
            screen.components(separatedBy: "speech unavailable").count == 2, "said once: \(screen.debugDescription)")
        #expect(screen.contains("\r\n1\r\n"), "each announcement is a text line: \(screen.debugDescription)")
        #expect(stubs.loaded.contains("libespeak-ng.so.1"), "the stub was not the library loaded")
    }

    @Test func aLibespeakNGThatIsNotAnELFFileIsAReasonTooNotACrash() async throws {
        let stubs = try StubSpeechLibraries(unloadable: "libespeak-ng.so.1")
        defer { stubs.remove() }
        let run = try await PromptRun([], environment: stubs.environment(), speech: "espeak")
        #expect(
            await run.process.waitForScreen(containing: "libespeak-ng.so.1 cannot be loaded", deadline: .seconds(5)),
            "screen: \(run.process.screen)")
        run.type("4242")
        run.type("42")
        #expect(await run.exit() == .exited(0))
        #expect(run.process.standardOutput == "424242\n")
    }

    @Test func doctorNamesTheLibraryThatCannotBeLoadedAndItsPackage() async throws {
        let stubs = try StubSpeechLibraries()
        defer { stubs.remove() }
        let process = try PseudoTerminalProcess(
            executable: PromptRun.binary, arguments: ["--doctor", "--speech", "espeak"],
            environment: stubs.environment())
        #expect(await process.waitForExit(deadline: .seconds(10)) == .exited(0))
        let report = process.standardOutput
        for library in [
            "libespeak-ng.so.1 cannot be loaded (install libespeak-ng1)",
            "libpcaudio.so.0 cannot be loaded (install libpcaudio0)",
            "libpulse.so.0 cannot be loaded (install libpulse0)",
        ] {
            #expect(report.contains("Speech library: \(library): it has no function"), "\(report)")
        }
    }

    @Test(arguments: [
        ["--version"], ["--help"], ["--stdin"], ["--speech", "none"], ["--speech", "text"],
        ["--speech", "auto", "ssh"],
    ])
    func runsThatDoNotSpeakNeverLoadTheSpeechLibraries(arguments: [String]) async throws {
        let stubs = try StubSpeechLibraries()
        defer { stubs.remove() }
        var arguments = arguments
        var environment = stubs.environment()
        if arguments.last == "ssh" {
            // An SSH session with no audio forwarded (no PULSE_SERVER): `auto` shows text lines.
            arguments.removeLast()
            environment["SSH_CONNECTION"] = "192.0.2.1 50000 192.0.2.2 22"
            environment["PULSE_SERVER"] = nil
        }
        let process = try PseudoTerminalProcess(
            executable: PromptRun.binary, arguments: arguments, environment: environment)
        if arguments.first == "--speech" || arguments == ["--stdin"] {
            _ = await process.waitForScreen(
                containing: arguments == ["--stdin"] ? "" : "Verification code", deadline: .seconds(5))
            process.type(arguments == ["--stdin"] ? "123456\n" : "123456")
        }
        #expect(await process.waitForExit(deadline: .seconds(10)) == .exited(0), "screen: \(process.screen)")
        #expect(stubs.loaded.isEmpty, "loaded: \(stubs.loaded), screen: \(process.screen)")
    }

    @Test func theSameStubsAreLoadedByARunThatSpeaks() async throws {
        // The check above cannot pass by accident: with the same environment, a spoken prompt loads them.
        let stubs = try StubSpeechLibraries()
        defer { stubs.remove() }
        let run = try await PromptRun([], environment: stubs.environment(), speech: "espeak")
        run.type("123456")
        #expect(await run.exit() == .exited(0))
        #expect(stubs.loaded.contains("libespeak-ng.so.1"))
    }
}

/// Stubs of libespeak-ng.so.1, libpcaudio.so.0 and libpulse.so.0 in a temporary directory.
struct StubSpeechLibraries {
    static let sonames = ["libespeak-ng.so.1", "libpcaudio.so.0", "libpulse.so.0"]
    static var compilerInstalled: Bool { access("/usr/bin/gcc", X_OK) == 0 }

    let directory: String
    let marker: String

    /// - Parameter unloadable: a soname written as an empty file rather than a library (dlopen: "file too short").
    init(unloadable: String? = nil) throws {
        directory = NSTemporaryDirectory() + "/otc-stub-libraries-\(UUID().uuidString)"
        marker = directory + "/loaded"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let source = directory + "/stub.c"
        try Self.source.write(toFile: source, atomically: true, encoding: .utf8)
        for soname in Self.sonames {
            let path = directory + "/" + soname
            if soname == unloadable {
                _ = FileManager.default.createFile(atPath: path, contents: Data())
                continue
            }
            let output = try runToCompletion(
                "/usr/bin/gcc",
                ["-shared", "-fPIC", "-o", path, "-Wl,-soname,\(soname)", "-DSTUB_NAME=\"\(soname)\"", source])
            guard access(path, R_OK) == 0 else { throw StubError.compileFailed(output) }
        }
    }

    /// The prompt's usual test environment, with the stubs found first and their marker named.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        PromptRun.environment(["LD_LIBRARY_PATH": directory, "OTC_STUB_MARKER": marker].merging(extra) { $1 })
    }

    /// The stubs loaded so far, in order.
    var loaded: [String] {
        ((try? String(contentsOfFile: marker, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }

    enum StubError: Error { case compileFailed(String) }

    /// A library with one unrelated function, which notes that it was loaded.
    static let source = """
        #include <fcntl.h>
        #include <stdlib.h>
        #include <string.h>
        #include <unistd.h>
        __attribute__((constructor)) static void noteLoaded(void) {
            const char *marker = getenv("OTC_STUB_MARKER");
            if (marker == NULL) return;
            int fd = open(marker, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
            if (fd < 0) return;
            write(fd, STUB_NAME "\\n", strlen(STUB_NAME) + 1);
            close(fd);
        }
        int otc_stub_unrelated(void) { return 0; }
        """
}
