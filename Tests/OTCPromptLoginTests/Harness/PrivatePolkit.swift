import Foundation
import Glibc
import OTCPromptTestSupport

/// polkit as the machine runs it, in a private mount namespace: a system bus of its own on a tmpfs over /run/dbus
/// (pkexec is setuid and ignores DBUS_SYSTEM_BUS_ADDRESS), polkitd on it, an admin in group sudo (Debian's admin
/// rule), and optionally a private copy of polkit's PAM file. The asker's
/// interactive shell runs on the test's pty; when it ends, the script kills the bus and polkitd by their PIDs.
/// Nothing of the host is changed but the throwaway users, which `ThrowawayUser` removes.
final class PrivatePolkit {
    let scratch: ScratchDirectory
    let asker: ThrowawayUser
    let admin: ThrowawayUser
    /// polkitd's log: "Registered Authentication Agent for unix-process:PID:START" once an agent has registered.
    let polkitdLog: String
    /// The pty running `unshare -m` and, in the end, the asker's `sh -i`.
    let shell: ClientRun

    /// - Parameter pamEcho: a line pam_echo says before the password, in a bind-mounted copy of polkit's PAM file.
    init(pamEcho: String? = nil) throws {
        scratch = try ScratchDirectory()
        asker = try ThrowawayUser(in: scratch)
        admin = try ThrowawayUser(in: scratch)
        polkitdLog = scratch.file("polkitd.log")
        // In group sudo through the account tools, which lock the databases as the other tests' useradd and userdel
        // do; userdel takes the membership away with the user. (A private /etc/group bind-mounted in the namespace
        // does not hold: another test's useradd renames a new /etc/group over it, and the mount goes with the old.)
        try runChecked(["/usr/sbin/usermod", "--append", "--groups", "sudo", admin.name])
        let bus = try scratch.write("bus.conf", Self.busConfiguration)
        var pamMount = ""
        if let pamEcho {
            let original = try String(contentsOfFile: "/usr/lib/pam.d/polkit-1", encoding: .utf8)
            let pam = try scratch.write(
                "polkit-1",
                original.replacingOccurrences(
                    of: "@include common-auth", with: "auth optional pam_echo.so \(pamEcho)\n@include common-auth"))
            pamMount = "mount --bind '\(pam)' /usr/lib/pam.d/polkit-1"
        }
        let script = try scratch.write(
            "namespace.sh",
            """
            #!/bin/bash
            set -e
            # The pty is this script's stderr; its stdout is the harness's pipe. The shell's output goes to the screen.
            exec 1>&2
            mount --make-rprivate /
            mount -t tmpfs -o mode=0755 tmpfs /run/dbus
            \(pamMount)
            dbus-daemon --config-file='\(bus)' --fork --print-pid > '\(scratch.file("dbus.pid"))'
            /usr/lib/polkit-1/polkitd > '\(polkitdLog)' 2>&1 &
            echo $! > '\(scratch.file("polkitd.pid"))'
            for _ in $(seq 100); do grep -q 'Acquired the name' '\(polkitdLog)' && break; sleep 0.1; done
            setpriv --reuid='\(asker.name)' --regid='\(asker.name)' --init-groups -- \\
                env -i HOME='\(asker.home)' PATH=/usr/sbin:/usr/bin:/sbin:/bin TERM=xterm-256color LANG=C.UTF-8 \\
                PS1='$ ' PULSE_SERVER=unix:/nonexistent sh -i

            """, mode: 0o755)
        shell = try ClientRun(["/usr/bin/unshare", "-m", script], environment: ClientRun.environment())
    }

    /// The bus and polkitd, by the PIDs the script wrote: the pty's end kills the script before any trap of its
    /// could run. The corresponding C function is `kill`.
    deinit {
        for name in ["polkitd.pid", "dbus.pid"] {
            let text = (try? String(contentsOfFile: scratch.file(name), encoding: .utf8)) ?? ""
            if let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 1 { kill(pid, SIGTERM) }
        }
    }

    /// Waits until polkitd says an agent registered for a process.
    func agentRegistered(count: Int = 1) async -> Bool {
        await shell.process.wait(deadline: .seconds(20)) { _ in
            let log = (try? String(contentsOfFile: self.polkitdLog, encoding: .utf8)) ?? ""
            return log.components(separatedBy: "Registered Authentication Agent for unix-process:").count > count
        }
    }

    /// The screen and polkitd's log, for a failure's message: polkitd says which identity it offered, and why not.
    var diagnosis: String {
        let log = (try? String(contentsOfFile: polkitdLog, encoding: .utf8)) ?? ""
        return "screen: \(shell.visibleScreen)\npolkitd: \(log)"
    }

    /// Waits until the screen, as a person sees it, shows `text`: the agent's restore may write its terminal modes
    /// between the echoed keys of a command typed while it still held the terminal.
    func seen(_ text: String) async -> Bool {
        await shell.process.wait(deadline: .seconds(15)) { visibleText($0.screen).contains(text) }
    }

    /// Types a command line at the asker's shell.
    func run(_ command: String) async {
        await shell.typeKeys(command + "\r")
    }

    /// The private bus: the system bus's own rules, polkit's policy from the installed package.
    static let busConfiguration = """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>system</type>
          <listen>unix:path=/run/dbus/system_bus_socket</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow user="*"/>
            <deny own="*"/>
            <deny send_type="method_call"/>
            <allow send_type="signal"/>
            <allow send_requested_reply="true" send_type="method_return"/>
            <allow send_requested_reply="true" send_type="error"/>
            <allow receive_type="method_call"/>
            <allow receive_type="method_return"/>
            <allow receive_type="error"/>
            <allow receive_type="signal"/>
            <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
            <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>
          </policy>
          <includedir>/usr/share/dbus-1/system.d</includedir>
        </busconfig>

        """
}
