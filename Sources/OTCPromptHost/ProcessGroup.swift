// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptSystem

/// Whether a stop of this process could ever be undone, from what /proc says about the processes.
///
/// The kernel drops a SIGTSTP (default action) sent to an orphaned process group (POSIX: a group in
/// which no member has a parent in a different group of the same session), because no shell could
/// continue it. That is `code=$(otc-prompt)` at an interactive shell: the prompt runs in the shell's
/// own group, whose only outside parent (a terminal emulator, sshd) is in another session.
public enum ProcessGroup {
    /// One process as far as job control is concerned.
    public struct Member: Equatable, Sendable {
        public var pid: Int32
        public var parent: Int32
        public var group: Int32
        public var session: Int32

        public init(pid: Int32, parent: Int32, group: Int32, session: Int32) {
            self.pid = pid
            self.parent = parent
            self.group = group
            self.session = session
        }
    }

    /// Whether `group` is orphaned among `processes`: true when no member's parent is in another group
    /// of the same session; nil when that cannot be told (no member listed, or a member's parent not
    /// listed, as /proc mounted with hidepid shows it) and no member proves the group is not orphaned.
    public static func isOrphaned(group: Int32, among processes: [Member]) -> Bool? {
        let byPID = Dictionary(processes.map { ($0.pid, $0) }, uniquingKeysWith: { first, _ in first })
        var seenMember = false
        var parentUnknown = false
        for member in processes where member.group == group {
            seenMember = true
            guard member.parent != 0 else { continue }  // init and the kernel's threads have no parent
            guard let parent = byPID[member.parent] else {
                parentUnknown = true
                continue
            }
            if parent.group != group && parent.session == member.session { return false }
        }
        return seenMember && !parentUnknown ? true : nil
    }

    /// One process's entry from the text of /proc/PID/stat: "pid (comm) state ppid pgrp session ...".
    /// The command name may hold spaces and parentheses, so the fields are read after its last ")".
    public static func member(fromStat text: String) -> Member? {
        guard let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard let pid = Int32(text[..<open].trimmingBlanks), fields.count >= 4,
            let parent = Int32(fields[1]), let group = Int32(fields[2]), let session = Int32(fields[3])
        else { return nil }
        return Member(pid: pid, parent: parent, group: group, session: session)
    }

    /// Whether this process's group is orphaned now; nil when /proc cannot tell (not mounted, hidden).
    /// The corresponding C calls are `getpgrp`, `opendir`, `readdir`, `open` and `read`.
    public static func currentIsOrphaned() -> Bool? {
        isOrphaned(group: getpgrp(), among: readAll())
    }

    /// Every process /proc shows.
    static func readAll() -> [Member] {
        ProcessTable.processIDs().compactMap { pid in
            ProcessTable.contents(of: "/proc/\(pid)/stat").flatMap {
                member(fromStat: String(decoding: $0, as: UTF8.self))
            }
        }
    }
}

extension Substring {
    fileprivate var trimmingBlanks: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
