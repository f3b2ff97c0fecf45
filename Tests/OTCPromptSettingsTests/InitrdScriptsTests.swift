import Foundation
import OTCPromptTestSupport
import Testing

/// The scripts that put otc-prompt into an initrd and set its sound up at boot (packaging/initrd, packaging/dracut,
/// packaging/mkinitcpio), run here against stand-ins: the builders' functions record what they are asked to add, a
/// fixture stands for /proc/asound, a script for amixer. The boots themselves are `make boot-test` and
/// `make boot-test-dracut`.
@Suite struct InitrdScriptsTests {
    static let packaging = GeneratedDocsTests.root.appendingPathComponent("packaging").path
    static var hasSpeech: Bool {
        FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/libespeak-ng.so.1")
    }

    struct Run {
        var status: Int32
        var output: String
        var errors: String
        /// The directory the script ran in ($WORK), removed since.
        var work: String
    }

    /// `script` run by `shell` in a fresh directory (its path in $WORK), with `environment` added.
    static func run(_ script: String, shell: String = "/bin/bash", environment: [String: String] = [:]) throws -> Run {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("otc-initrd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let process = try SpawnedProgram(
            shell, ["-c", script],
            environment: ProcessInfo.processInfo.environment.merging(
                ["WORK": work.path, "PACKAGING": packaging], uniquingKeysWith: { $1 }
            ).merging(environment, uniquingKeysWith: { $1 }))
        let status = process.waitForExit(deadline: .seconds(60)) ?? -1
        process.waitForOutput()
        return Run(status: status, output: process.output, errors: process.errors, work: work.path)
    }

    // MARK: mkinitcpio

    /// mkinitcpio's functions (man mkinitcpio, "ABOUT INSTALL HOOKS"), recording each call on a line of $WORK/calls.
    static let mkinitcpioStandIns = """
        BUILDROOT=$WORK/root; mkdir -p "$BUILDROOT"
        for f in add_binary add_file add_module add_symlink add_systemd_unit warning; do
            eval "$f() { echo \\"$f \\$*\\" >>\\"\\$WORK/calls\\"; }"
        done
        add_dir() { echo "add_dir $*" >>"$WORK/calls"; mkdir -p "$BUILDROOT$1"; }
        """

    @Test func mkinitcpiosBuildAddsTheAgentItsUnitsTheSpeechOfOneLanguageAndTheDrivers() throws {
        try #require(Self.hasSpeech, "libespeak-ng1 is not installed here")
        let run = try Self.run(
            Self.mkinitcpioStandIns + """

                . "$PACKAGING/mkinitcpio/otc-prompt"
                build
                cat "$WORK/calls"
                echo "config: $(cat "$BUILDROOT/etc/otc-prompt/config")"
                echo "config-text: $(cat "$BUILDROOT/etc/otc-prompt/config-text" | tr '\n' ' ')"
                echo "boot.conf: $(cat "$BUILDROOT/etc/otc-prompt/boot.conf")"
                """,
            environment: [
                "OTC_PROMPT_SHARE": Self.packaging + "/initrd", "OTC_PROMPT_BINARY": "/bin/true",
                "OTC_PROMPT_LANGUAGE": "pt_BR", "OTC_PROMPT_CARD": "PCH",
            ])
        #expect(run.status == 0, "\(run.errors)")
        let calls = Set(run.output.split(separator: "\n").map(String.init))
        let share = Self.packaging + "/initrd"
        let units = "/usr/lib/systemd/system"
        for expected in [
            "add_binary /bin/true /usr/bin/otc-prompt",
            "add_systemd_unit otc-prompt-ask-password-console.path",
            "add_systemd_unit otc-prompt-ask-password-console.service",
            "add_file \(share)/otc-prompt-initrd.conf "
                + "/etc/systemd/system/otc-prompt-ask-password-console.service.d/otc-prompt-initrd.conf",
            "add_symlink \(units)/sysinit.target.wants/otc-prompt-ask-password-console.path "
                + "\(units)/otc-prompt-ask-password-console.path",
            "add_file \(share)/otc-prompt-unlocked.service \(units)/otc-prompt-unlocked.service",
            "add_symlink \(units)/cryptsetup.target.wants/otc-prompt-unlocked.service \(units)/otc-prompt-unlocked.service",
            "add_binary \(share)/sound /usr/share/otc-prompt/initrd/sound",
            "add_binary /usr/lib/x86_64-linux-gnu/libespeak-ng.so.1",
            "add_binary /usr/lib/x86_64-linux-gnu/libpcaudio.so.0",
            "add_file /usr/lib/x86_64-linux-gnu/espeak-ng-data/pt_dict",
            "add_file /usr/lib/x86_64-linux-gnu/espeak-ng-data/phondata",
            "add_file /usr/share/alsa/alsa.conf",
            "add_file /usr/share/alsa/ctl/default.conf",
            "add_module snd-hda-intel?", "add_module snd-usb-audio?", "add_module pcspkr?",
            "config: lang = \"pt-BR\"", "config-text: lang = \"pt-BR\" speech = \"text\" ",
            "boot.conf: OTC_PROMPT_CARD=PCH",
            "add_file \(share)/pulse-client.conf /usr/share/otc-prompt/initrd/pulse-client.conf",
        ] {
            #expect(calls.contains(expected), "missing: \(expected)")
        }
        // One language's voice: no other dictionary.
        #expect(!calls.contains { $0.hasSuffix("/en_dict") || $0.hasSuffix("/de_dict") })
    }

    /// What the hooks put in the image by name must exist: the package's own units, which the path enables.
    @Test func theFilesTheInitrdsTakeFromThePackageExistAndThePathUnitIsEnabledBySysinit() throws {
        for file in [
            "initrd/otc-prompt-initrd.conf", "initrd/otc-prompt-unlocked.service", "initrd/sound",
            "initrd/contents", "systemd/otc-prompt-ask-password-console.path",
        ] {
            #expect(FileManager.default.fileExists(atPath: Self.packaging + "/" + file), "\(file)")
        }
        let path = try String(
            contentsOfFile: Self.packaging + "/systemd/otc-prompt-ask-password-console.path", encoding: .utf8)
        #expect(path.contains("WantedBy=sysinit.target"))
        let dropIn = try String(contentsOfFile: Self.packaging + "/initrd/otc-prompt-initrd.conf", encoding: .utf8)
        #expect(dropIn.contains("ExecStartPre=-/usr/share/otc-prompt/initrd/sound prepare"))
        #expect(dropIn.contains("ExecStopPost=-/usr/share/otc-prompt/initrd/sound restore"))
        #expect(dropIn.contains("EnvironmentFile=-/run/otc-prompt/agent.env"))
    }

    // MARK: dracut

    /// dracut's functions (dracut-init.sh), recording each call.
    static let dracutStandIns = """
        initdir=$WORK/root; mkdir -p "$initdir"; moddir=$PACKAGING/dracut; systemdsystemunitdir=/usr/lib/systemd/system
        for f in inst_binary inst_simple inst_library inst_script inst_multiple instmods dwarning; do
            eval "$f() { echo \\"$f \\$*\\" >>\\"\\$WORK/calls\\"; }"
        done
        SYSTEMCTL=systemctl_standin
        systemctl_standin() { echo "systemctl $*" >>"$WORK/calls"; }
        find_binary() { command -v "$1"; }
        require_binaries() { for b; do [ -x "$b" ] || return 1; done; }
        """

    @Test func theDracutModuleIsOnlyUsedWhenAskedForAndInstallsWhatMkinitcpiosHookDoes() throws {
        try #require(Self.hasSpeech, "libespeak-ng1 is not installed here")
        let run = try Self.run(
            Self.dracutStandIns + """

                otc_prompt_binary=/bin/true otc_prompt_share=$PACKAGING/initrd otc_prompt_units=$PACKAGING/systemd
                otc_prompt_language=fr otc_prompt_volume=60
                . "$PACKAGING/dracut/module-setup.sh"
                check; echo "check: $?"
                echo "depends: $(depends)"
                installkernel; install
                cat "$WORK/calls"
                echo "config: $(cat "$initdir/etc/otc-prompt/config")"
                echo "config-text: $(cat "$initdir/etc/otc-prompt/config-text" | tr '\n' ' ')"
                echo "boot.conf: $(cat "$initdir/etc/otc-prompt/boot.conf")"
                """)
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(separator: "\n").map(String.init)
        let calls = Set(lines)
        // 255: dracut includes it only when a configuration line adds it.
        #expect(calls.contains("check: 255") && calls.contains("depends: systemd"))
        for expected in [
            "inst_binary /bin/true /usr/bin/otc-prompt",
            "inst_simple \(Self.packaging)/systemd/otc-prompt-ask-password-console.path "
                + "/usr/lib/systemd/system/otc-prompt-ask-password-console.path",
            "inst_library /usr/lib/x86_64-linux-gnu/libespeak-ng.so.1",
            "inst_simple /usr/lib/x86_64-linux-gnu/espeak-ng-data/fr_dict",
            "instmods snd-hda-intel", "instmods pcspkr",
            "config: lang = \"fr\"", "config-text: lang = \"fr\" speech = \"text\" ",
            "boot.conf: OTC_PROMPT_VOLUME=60",
        ] {
            #expect(calls.contains(expected), "missing: \(expected)")
        }
        // With the libraries libespeak-ng links, which dracut alone would not copy.
        #expect(lines.contains { $0.hasPrefix("inst_library ") && $0.hasSuffix("/libsonic.so.0") })
        #expect(
            lines.contains {
                $0.hasPrefix("systemctl -q --root ") && $0.hasSuffix(" enable otc-prompt-ask-password-console.path")
            })
        #expect(lines.contains { $0.hasSuffix(" enable otc-prompt-unlocked.service") })
    }
}
