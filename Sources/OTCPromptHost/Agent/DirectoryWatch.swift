// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptSystem

/// The password agent's directories of requests, watched with inotify: a request written, moved in or removed;
/// and the directory itself removed, moved away or replaced, after which the nearest directory above it that still
/// exists is watched until it comes back, so that the agent never waits deaf.
///
/// A directory's removal is seen in its parent (watched too, for that name alone): its own IN_DELETE_SELF waits
/// until the last descriptor of it is closed, and the agent holds one (`AskDirectory`).
///
/// `@unchecked Sendable`: one thread at a time reads it, the agent's or, while the agent waits, its relay's
/// (`HangUpRelay.stop()` waits for that thread before the agent reads again).
public final class DirectoryWatch: @unchecked Sendable {
    /// Readable when a watched directory changed.
    public let descriptor: Int32
    /// Every place the agent may watch, by its index.
    public let paths: [String]
    /// The watch of each place watched now.
    private var places: [Int32: Int] = [:]
    /// For each place watched now, its parent's watch and its own name there.
    private var guards: [Int: (watch: Int32, name: String)] = [:]
    /// The directory above a place that is gone, watched for its return: the watch, and the path it is of.
    private var returns: [Int: (watch: Int32, path: String)] = [:]
    /// Changes a relay's thread read while the agent waited, handed out first by `changes()`.
    private var pending: [Change] = []

    /// What changed at the place `directory` (an index into `paths`).
    public enum Change: Equatable, Sendable {
        /// A file was written and closed, or moved in: a request, perhaps.
        case added(directory: Int, name: String)
        case removed(directory: Int, name: String)
        /// Events were lost (the kernel's queue overflowed): read the directories again.
        case lost
        /// The directory was removed, moved away or replaced (`awaitReturn` watches above it).
        case directoryGone(Int)
        /// Something changed above a directory that is gone: it may be back (`mayBeBack`).
        case directoryMayBeBack(Int)
    }

    /// What each kind of watch is told of. A directory may be watched in several ways at once (a place that is
    /// also the parent of another); IN_MASK_ADD keeps the union, and each event is read for each way.
    private static let common = UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW | IN_MASK_ADD)
    private static let placeMask = common | UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM)
    private static let guardMask = common | UInt32(IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO)
    private static let returnMask = common | UInt32(IN_CREATE | IN_MOVED_TO)

    /// An inotify instance for `paths`, watching none yet (`watch(_:)`). The corresponding C call is
    /// `inotify_init1`.
    public init(paths: [String]) throws(HostError) {
        descriptor = SystemCall.retrying("inotify_init1") { inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK)) }
        guard descriptor >= 0 else { throw .system(.current, call: "inotify_init1") }
        self.paths = paths
    }

    /// Takes over the watch a previous image of the agent handed over (`AgentRenewal`), with the events it has
    /// queued since: watching a path already watched gives back its watch, so each event maps to its directory
    /// again. The corresponding C call is `fcntl`.
    public init(adopting descriptor: Int32, paths: [String]) {
        self.descriptor = descriptor
        self.paths = paths
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(descriptor) }

    /// Watches the place at `index`, and its parent for its name. The corresponding C call is `inotify_add_watch`.
    public func watch(_ index: Int) throws(HostError) {
        let watch = try add(paths[index], mask: Self.placeMask)
        stopAwaiting(index)
        places[watch] = index
        if let parent = Self.parent(of: paths[index]), let parentWatch = try? add(parent, mask: Self.guardMask) {
            guards[index] = (parentWatch, String(paths[index].split(separator: "/").last ?? ""))
        }
    }

    /// The place at `index` is gone: its watches are dropped (a directory moved away would still be watched where it
    /// went) and the nearest directory above it that exists is watched instead, for its return. The corresponding
    /// C calls are `inotify_rm_watch`, `lstat` and `inotify_add_watch`.
    public func awaitReturn(_ index: Int) {
        for (watch, place) in places where place == index {
            places[watch] = nil
            release(watch)
        }
        if let parent = guards.removeValue(forKey: index) { release(parent.watch) }
        stopAwaiting(index)
        var above = paths[index]
        while let parent = Self.parent(of: above) {
            above = parent
            var status = stat()
            guard lstat(above, &status) == 0, status.st_mode & S_IFMT == S_IFDIR,
                let watch = try? add(above, mask: Self.returnMask)
            else { continue }
            returns[index] = (watch, above)
            return
        }
    }

    /// Whether the place at `index`, gone, may be back: it exists, or a directory nearer to it than the one
    /// watched does, or the one watched is gone too (then `awaitReturn` again watches the nearest that is there).
    /// The corresponding C call is `lstat`.
    public func mayBeBack(_ index: Int) -> Bool {
        guard let watched = returns[index]?.path else { return false }
        var status = stat()
        if lstat(watched, &status) != 0 { return true }
        var path = paths[index]
        while path != watched {
            if lstat(path, &status) == 0 { return true }
            guard let parent = Self.parent(of: path) else { return false }
            path = parent
        }
        return false
    }

    /// Whether the place at `index` is watched for its return.
    public func isAwaiting(_ index: Int) -> Bool { returns[index] != nil }

    private func stopAwaiting(_ index: Int) {
        if let waited = returns.removeValue(forKey: index) { release(waited.watch) }
    }

    private func add(_ path: String, mask: UInt32) throws(HostError) -> Int32 {
        let watch = SystemCall.retrying("inotify_add_watch") { inotify_add_watch(descriptor, path, mask) }
        guard watch >= 0 else { throw .system(.current, call: "inotify_add_watch") }
        return watch
    }

    /// Removes `watch` once nothing watches through it any more.
    private func release(_ watch: Int32) {
        let used =
            places[watch] != nil || guards.values.contains { $0.watch == watch }
            || returns.values.contains { $0.watch == watch }
        if !used { _ = inotify_rm_watch(descriptor, watch) }
    }

    private static func parent(of path: String) -> String? {
        guard path != "/", let slash = path.dropLast().lastIndex(of: "/") else { return nil }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The changes waiting, without blocking; empty when none. The corresponding C call is `read`.
    public func changes() -> [Change] {
        defer { pending = [] }
        return pending + readChanges()
    }

    /// Reads the changes waiting and keeps them for `changes()`; whether one of them `matters` (a request that is
    /// there, a directory gone or back). A relay's test: a socket made or a file removed does not end the agent's
    /// wait, which would say "Waiting for password requests" again for nothing; nor does the close of a file its
    /// querier has already removed (systemd-ask-password unlinks, then closes).
    public func keepChanges(whereOneMatters matters: (Change) -> Bool) -> Bool {
        let read = readChanges()
        pending += read
        return read.contains(where: matters)
    }

    private func readChanges() -> [Change] {
        var changes: [Change] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in
                SystemCall.retrying("read") { Glibc.read(descriptor, raw.baseAddress, raw.count) }
            }
            guard count > 0 else { return changes }
            changes += Self.parse(
                buffer[..<count], directories: places,
                guards: guards.reduce(into: [:]) { $0[$1.value.watch, default: []].append(($1.key, $1.value.name)) },
                returns: returns.reduce(into: [:]) { $0[$1.value.watch, default: []].append($1.key) })
        }
    }

    /// Parses a sample record, as `changes()` parses the kernel's, and nothing more: the agent's rehearsal
    /// (`AgentProgram.rehearse`), so that a request's arrival does not pay for the parsing's first run.
    public static func rehearse() {
        var record = [UInt8](repeating: 0, count: 32)
        for (index, byte) in withUnsafeBytes(of: UInt32(IN_MOVED_TO).littleEndian, Array.init).enumerated() {
            record[4 + index] = byte
        }
        record[12] = 16
        for (index, byte) in "ask.rehearsal".utf8.enumerated() { record[16 + index] = byte }
        _ = parse(record[...], directories: [0: 0], guards: [0: [(0, "x")]], returns: [0: [0]])
    }

    /// `struct inotify_event` records: wd, mask, cookie, len, then len bytes of NUL-padded name.
    static func parse(
        _ bytes: ArraySlice<UInt8>, directories: [Int32: Int], guards: [Int32: [(place: Int, name: String)]] = [:],
        returns: [Int32: [Int]] = [:]
    ) -> [Change] {
        var changes: [Change] = []
        var offset = bytes.startIndex
        func word(_ at: Int) -> UInt32 {
            bytes[at..<(at + 4)].enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
        }
        while offset + 16 <= bytes.endIndex {
            let watch = Int32(bitPattern: word(offset))
            let mask = word(offset + 4)
            let length = Int(word(offset + 12))
            guard offset + 16 + length <= bytes.endIndex else { break }
            let name = String(decoding: bytes[(offset + 16)..<(offset + 16 + length)].prefix { $0 != 0 }, as: UTF8.self)
            offset += 16 + length
            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                changes.append(.lost)
                continue
            }
            let itself = mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0
            func gone(_ place: Int) {
                if !changes.contains(.directoryGone(place)) { changes.append(.directoryGone(place)) }
            }
            for place in returns[watch] ?? [] where itself || mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                changes.append(.directoryMayBeBack(place))
            }
            // The parent: the place's name removed, moved away or moved over; the parent itself gone.
            let nameChanged = mask & UInt32(IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO) != 0
            for (place, placeName) in guards[watch] ?? [] where itself || (nameChanged && name == placeName) {
                gone(place)
            }
            guard let directory = directories[watch] else { continue }
            if itself {
                gone(directory)
                continue
            }
            guard !name.isEmpty else { continue }
            if mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO) != 0 {
                changes.append(.added(directory: directory, name: name))
            }
            if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
                changes.append(.removed(directory: directory, name: name))
            }
        }
        return changes
    }
}
