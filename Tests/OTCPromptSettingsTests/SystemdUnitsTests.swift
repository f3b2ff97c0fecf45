import Foundation
import Testing

@testable import OTCPromptDocs
@testable import OTCPromptSettings

/// The systemd units the package ships (packaging/systemd, installed by packaging/build-deb) run options that exist,
/// are named in the man page, and are never enabled by the package itself.
@Suite struct SystemdUnitsTests {
    static let directory = GeneratedDocsTests.root.appendingPathComponent("packaging/systemd")

    static var units: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    static func text(of unit: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(unit), encoding: .utf8)
    }

    /// The console agent's path unit and its service, and the touch cues' user unit.
    static let userUnits: Set<String> = ["otc-prompt-touch-watch.service"]

    @Test func theConsoleAgentIsAPathUnitAndItsServiceAndTheTouchCuesAUserUnit() {
        #expect(
            Self.units == [
                "otc-prompt-ask-password-console.path", "otc-prompt-ask-password-console.service",
                "otc-prompt-touch-watch.service",
            ])
    }

    @Test(arguments: units)
    func theManPageNamesTheUnitWhereThePackageInstallsIt(unit: String) throws {
        let directory = Self.userUnits.contains(unit) ? "user" : "system"
        #expect(ManPage.text.contains(".It Pa /usr/lib/systemd/\(directory)/\(unit)\n"))
        #expect(try Self.text(of: unit).contains("Documentation=man:otc-prompt(1)\n"))
    }

    /// A renamed option would leave a unit that fails at the moment a disk or a service waits for its password.
    @Test(arguments: units.filter { $0.hasSuffix(".service") })
    func everyOptionTheServiceRunsIsDeclared(unit: String) throws {
        let execStart = try #require(
            try Self.text(of: unit).split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        let words = execStart.dropFirst("ExecStart=".count).split(separator: " ")
        #expect(words.first == "/usr/bin/otc-prompt")
        #expect(words.contains(Self.userUnits.contains(unit) ? "--touch-watch" : "--agent"))
        let declared = Set(Settings.all.map(\.name) + Program.standardOptions.map(\.long))
        for word in words where word.hasPrefix("--") {
            #expect(declared.contains(String(word.dropFirst(2))), "\(unit) runs \(word), which no setting declares")
        }
    }

    @Test func theServiceAsksOnTheConsoleAsItsTerminal() throws {
        let service = try Self.text(of: "otc-prompt-ask-password-console.service")
        for line in ["StandardInput=tty", "TTYPath=/dev/console", "DefaultDependencies=no"] {
            #expect(service.contains("\n\(line)\n"), "\(line)")
        }
        // lintian's systemd-service-file-shutdown-problems: with no default dependencies, stopped before shutdown.
        #expect(service.contains("\nConflicts=shutdown.target") && service.contains("\nBefore=shutdown.target"))
        // Installed by hand only: a service with an [Install] section could be enabled on its own, without the path.
        #expect(!service.contains("[Install]"))
        #expect(
            try Self.text(of: "otc-prompt-ask-password-console.path").contains("[Install]\nWantedBy=sysinit.target"))
    }

    /// A user unit runs without a terminal: the watcher's lines go to the journal, and SIGTERM ends it.
    @Test func theTouchCuesAreAUserServiceThatAUserEnables() throws {
        let service = try Self.text(of: "otc-prompt-touch-watch.service")
        #expect(!service.contains("StandardInput=tty"))
        #expect(!service.contains("DefaultDependencies=no"))
        #expect(service.contains("[Install]\nWantedBy=default.target\n"))
    }
}
