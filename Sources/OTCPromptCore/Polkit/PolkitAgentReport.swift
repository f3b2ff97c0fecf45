/// `--doctor`'s line on polkit: which authentication agent of the user's runs, found in the process table (polkitd
/// offers no list of its agents): otc-prompt's own, or another known one.
public enum PolkitAgentReport {
    /// The command names (`/proc/PID/comm`, at most 15 bytes) of the agents known, and how the report names them.
    static let knownAgents: [(comm: String, name: String)] = [
        ("pkttyagent", "pkttyagent"),
        ("polkit-gnome-au", "polkit-gnome"),
        ("polkit-kde-auth", "polkit-kde"),
        ("polkit-mate-aut", "polkit-mate"),
        ("lxpolkit", "lxpolkit"),
        ("lxqt-policykit-", "lxqt-policykit"),
        ("xfce-polkit", "xfce-polkit"),
        ("hyprpolkitagent", "hyprpolkitagent"),
        ("gnome-shell", "GNOME Shell's own"),
    ]

    /// The report's line, from the user's processes (`uid`'s) and a way to read one's arguments.
    /// - Parameter arguments: a process's command line, nil when it cannot be read.
    public static func line(processes: [ProcessRecord], uid: UInt32, arguments: (Int32) -> [String]?) -> String {
        let mine = processes.filter { $0.uid == uid }
        var found: [String] = []
        for process in mine {
            if process.name == "otc-prompt", let argv = arguments(process.pid), argv.contains("--polkit-agent") {
                let served = argv.firstIndex(of: "--process").flatMap {
                    argv.indices.contains($0 + 1) ? argv[$0 + 1] : nil
                }
                found.append(
                    "otc-prompt --polkit-agent (process \(process.pid)"
                        + (served.map { ", for process \($0))" } ?? ", for the login session)"))
            } else if let known = knownAgents.first(where: { $0.comm == process.name }) {
                found.append("\(known.name) (process \(process.pid))")
            }
        }
        guard !found.isEmpty else {
            return "polkit agent: none of yours is running; pkexec asks on its own terminal, udisksctl and run0 refuse "
                + "(start otc-prompt --polkit-agent)."
        }
        return "polkit agent: " + found.joined(separator: "; ") + "."
    }
}
