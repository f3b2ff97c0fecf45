import Foundation
import Glibc
import OTCPromptTestSupport
import Testing

/// The initramfs hook and the keyscript (packaging/): what the hook writes for the boot is data, and the keyscript
/// reads it as data. A language setting holding shell (`de$(…)`) once went into /conf/otc-prompt.conf as written,
/// and the keyscript sourced that file at boot, as root, before the disk was unlocked.
@Suite(.runsPrograms) struct KeyscriptEndToEndTests {
    static let packaging = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("packaging").path
    static let hookFunctions = "/usr/share/initramfs-tools/hook-functions"

    let scratch: String

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/otc-keyscript-XXXXXX").utf8CString)
        let made = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) })
        scratch = String(cString: made)
    }

    /// A file that exists only if shell that should have stayed text was run.
    var marker: String { scratch + "/ran" }

    private func run(_ executable: String, _ arguments: [String], environment: [String: String]) async throws -> (
        OTCPromptTestSupport.ExitStatus?, String
    ) {
        let process = try PseudoTerminalProcess(executable: executable, arguments: arguments, environment: environment)
        let status = await process.waitForExit(deadline: .seconds(60))
        return (status, visibleText(process.screen))
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: hookFunctions), "needs initramfs-tools"))
    func theHookWritesTheLanguageAsAFixedWordWhateverTheSettingHolds() async throws {
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let destination = scratch + "/image"
        mkdir(destination, 0o755)
        for setting in ["de$(touch \(marker))", "de_DE.UTF-8`touch \(marker)`", "pt_BR;touch \(marker)"] {
            var environment: [String: String] = [
                "PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "verbose": "n", "DESTDIR": destination,
                "OTC_PROMPT_INITRAMFS": "y", "OTC_PROMPT_BINARY": "/bin/true",
            ]
            environment["OTC_PROMPT_LANGUAGE"] = setting
            environment["OTC_PROMPT_KEYSCRIPT"] = Self.packaging + "/cryptsetup/otc-prompt"
            environment["OTC_PROMPT_SOUND_SCRIPT"] = Self.packaging + "/initramfs-tools/init-top/otc-prompt"
            environment["OTC_PROMPT_UNLOCKED_SCRIPT"] = Self.packaging + "/initramfs-tools/local-premount/otc-prompt"
            environment["OTC_PROMPT_CONTENTS"] = Self.packaging + "/initrd/contents"
            environment["OTC_PROMPT_SOUND"] = Self.packaging + "/initrd/sound"
            let hook = Self.packaging + "/initramfs-tools/hooks/otc-prompt"
            let (status, screen) = try await run("/bin/sh", [hook], environment: environment)
            #expect(status == .exited(0), "\(screen)")
            let written = try String(contentsOfFile: destination + "/conf/otc-prompt.conf", encoding: .utf8)
            #expect(written == (setting.hasPrefix("pt_BR") ? "OTC_PROMPT_LANG=pt-BR\n" : "OTC_PROMPT_LANG=de\n"))
        }
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    /// The keyscript, its paths pointed at the test's own: the settings file, and a stand-in for the program that
    /// writes the arguments it was given.
    private func keyscript(settings: String) async throws -> String {
        let stub = scratch + "/otc-prompt"
        let arguments = scratch + "/arguments"
        try Self.write("#!/bin/sh\necho \"$@\" > '\(arguments)'\n", to: stub, mode: 0o755)
        let settingsPath = scratch + "/otc-prompt.conf"
        try Self.write(settings, to: settingsPath, mode: 0o644)
        let script = try String(contentsOfFile: Self.packaging + "/cryptsetup/otc-prompt", encoding: .utf8)
            .replacingOccurrences(of: "\nprompt=/usr/bin/otc-prompt\n", with: "\nprompt='\(stub)'\n")
            .replacingOccurrences(of: "\nsettings=/conf/otc-prompt.conf\n", with: "\nsettings='\(settingsPath)'\n")
        #expect(script.contains(stub) && script.contains(settingsPath), "the keyscript's paths moved")
        let copy = scratch + "/keyscript"
        try Self.write(script, to: copy, mode: 0o644)
        unlink(arguments)
        // On a terminal: the keyscript takes the console only when stdin is none.
        let (status, screen) = try await run(
            "/bin/sh", [copy], environment: ["PATH": "/usr/bin:/bin", "CRYPTTAB_NAME": "sda2_crypt"])
        #expect(status == .exited(0), "\(screen)")
        return (try? String(contentsOfFile: arguments, encoding: .utf8)) ?? ""
    }

    /// Writes a new file through a descriptor closed on exec: a program another test forks meanwhile must not keep it
    /// open for writing, or executing it fails with ETXTBSY (and the keyscript falls back to askpass, which waits).
    static func write(_ text: String, to path: String, mode: mode_t) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        try #require(descriptor >= 0, "create \(path)")
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        try #require(Glibc.write(descriptor, bytes, bytes.count) == bytes.count)
        fchmod(descriptor, mode)
    }

    @Test(
        arguments: [
            "OTC_PROMPT_LANG=$(touch MARKER)\n", "OTC_PROMPT_LANG=de\ntouch MARKER\n",
            "OTC_PROMPT_LANG=de;touch MARKER\n",
            "OTC_PROMPT_LANG=`touch MARKER`\n", "OTC_PROMPT_SPEECH=none; touch MARKER\n",
        ])
    func aSettingsFileHoldingShellIsNeverRun(settings: String) async throws {
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let arguments = try await keyscript(settings: settings.replacingOccurrences(of: "MARKER", with: marker))
        #expect(!FileManager.default.fileExists(atPath: marker), "the settings file was run as shell")
        #expect(arguments.hasPrefix("--cryptsetup --speech espeak"), "\(arguments)")
        #expect(!arguments.contains("touch"))
        if settings == "OTC_PROMPT_LANG=de\ntouch MARKER\n" { #expect(arguments.contains("--lang de")) }
    }

    @Test(arguments: ["en", "de", "es", "fr", "pt", "pt-BR"])
    func theLanguageTheHookWroteIsPassedOn(language: String) async throws {
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let arguments = try await keyscript(settings: "OTC_PROMPT_LANG=\(language)\n")
        #expect(arguments == "--cryptsetup --speech espeak --lang \(language)\n")
    }
}
