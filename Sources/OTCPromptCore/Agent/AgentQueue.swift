/// The requests waiting, oldest first, by their file's name only: a file is read again when its turn comes, so
/// a thousand requests cost a thousand names, never a thousand files' text.
///
/// Pure, and never trusted for a count: what is said ("2 more waiting") is recomputed from the directories at the
/// moment it is said (`waiting(exists:)`), as systemd's own agent reads its directory again on every wake. The
/// queue only keeps the order, and what must never come back: a request refused or skipped (malformed, its process
/// gone, its time passed) is remembered by its file's identity, so that reading the directory again never queues
/// it again; the same name written anew is a new request.
public struct AgentQueue: Equatable, Sendable {
    /// One request: the directory it was found in (an index into the agent's watched directories) and its name.
    public struct Entry: Hashable, Sendable {
        public var directory: Int
        public var name: String

        public init(directory: Int, name: String) {
            self.directory = directory
            self.name = name
        }
    }

    /// A file as it was found: its inode and when it was last written. A request rewritten under its name, or
    /// renamed over it, has another.
    public struct Identity: Hashable, Sendable {
        public var inode: UInt64
        /// Its modification time, in nanoseconds.
        public var modified: Int64

        public init(inode: UInt64, modified: Int64) {
            self.inode = inode
            self.modified = modified
        }
    }

    /// The most requests held; more are not queued until some are gone (the directory is read again then).
    public static let capacity = 4096

    public private(set) var entries: [Entry] = []
    private var members: Set<Entry> = []
    /// Requests refused or skipped, with the identity their file had then (nil: it could not be examined).
    private var skipped: [Entry: Identity?] = [:]
    /// Whether a request was turned away because the queue was full: the directory is read again once it is not.
    public private(set) var overflowed = false

    public init() {}

    /// Whether `name` is a request's name: systemd's `ask.` files, not its `sck.` sockets or a querier's
    /// temporary file.
    public static func isRequestName(_ name: String) -> Bool {
        name.hasPrefix("ask.") && name.count > 4 && name.count <= 255 && !name.contains("/")
    }

    /// A request was written or moved in (the watch saw it, and it is there): queued at the end, once. A name
    /// refused before is a new request now: its file was written again.
    @discardableResult
    public mutating func arrived(_ entry: Entry) -> Bool {
        skipped[entry] = nil
        return add(entry)
    }

    /// The file of `entry` is gone (answered, withdrawn, removed): it leaves the queue and the memory.
    @discardableResult
    public mutating func gone(_ entry: Entry) -> Bool {
        skipped[entry] = nil
        return remove(entry)
    }

    /// Takes the request to ask next out of the queue.
    public mutating func takeNext() -> Entry? {
        guard let first = entries.first else { return nil }
        remove(first)
        return first
    }

    /// `entry` is not asked (refused, its process gone, its time passed): out of the queue, and never queued again
    /// by a reading of its directory while its file is the same.
    public mutating func skip(_ entry: Entry, identity: Identity?) {
        remove(entry)
        skipped[entry] = .some(identity)
    }

    /// Whether `entry` was refused or skipped.
    public func wasSkipped(_ entry: Entry) -> Bool { skipped[entry] != nil }

    /// The directory at `directory` read again: every request in `found` (oldest first) queued, but those already
    /// queued (they keep their place) and those refused or skipped while their file is the same. What the
    /// directory no longer holds is forgotten. The overflow mark is cleared first, so a read that still finds more
    /// than the queue holds leaves it set, and the rest are read once there is room.
    public mutating func rescan(directory: Int, found: [(name: String, identity: Identity)]) {
        overflowed = false
        let present = Set(found.map(\.name))
        for entry in skipped.keys where entry.directory == directory && !present.contains(entry.name) {
            skipped[entry] = nil
        }
        keep { $0.directory != directory || present.contains($0.name) }
        for (name, identity) in found {
            let entry = Entry(directory: directory, name: name)
            if let remembered = skipped[entry] {
                if remembered == identity { continue }
                skipped[entry] = nil
            }
            add(entry)
        }
    }

    /// Everything about the directory at `directory` forgotten: it is gone, and read afresh when it comes back.
    public mutating func forget(directory: Int) {
        keep { $0.directory != directory }
        for entry in skipped.keys where entry.directory == directory { skipped[entry] = nil }
    }

    /// The requests waiting now besides the one being asked, oldest first: those whose file `exists` still finds
    /// (the rest leave the queue). What is said of the queue is this, at the moment it is said.
    public mutating func waiting(besides asked: Entry? = nil, exists: (Entry) -> Bool) -> [Entry] {
        keep(where: exists)
        return entries.filter { $0 != asked }
    }

    public var count: Int { entries.count }

    /// How many are remembered as refused or skipped (bounded by the files present: a removal forgets).
    public var skippedCount: Int { skipped.count }

    /// Whether the queue has room again after an overflow: then the directories are read again.
    public var wantsRescan: Bool { overflowed && entries.count < Self.capacity / 2 }

    @discardableResult
    private mutating func add(_ entry: Entry) -> Bool {
        guard Self.isRequestName(entry.name), !members.contains(entry) else { return false }
        guard entries.count < Self.capacity else {
            overflowed = true
            return false
        }
        entries.append(entry)
        members.insert(entry)
        return true
    }

    private mutating func keep(where included: (Entry) -> Bool) {
        let kept = entries.filter(included)
        guard kept.count != entries.count else { return }
        entries = kept
        members = Set(kept)
    }

    @discardableResult
    private mutating func remove(_ entry: Entry) -> Bool {
        guard members.remove(entry) != nil, let index = entries.firstIndex(of: entry) else { return false }
        entries.remove(at: index)
        return true
    }
}
