/// The requests waiting, oldest first, by their file's name only: a file is read again when its turn comes, so
/// a thousand requests cost a thousand names, never a thousand files' text.
///
/// Pure: the agent adds what the directory's watch reports and removes what is gone or answered.
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

    /// The most requests held; more are not queued until some are gone (the directory is read again then).
    public static let capacity = 4096

    public private(set) var entries: [Entry] = []
    private var members: Set<Entry> = []
    /// Whether a request was turned away because the queue was full: the directory is read again once it is not.
    public private(set) var overflowed = false

    public init() {}

    /// Whether `name` is a request's name: systemd's `ask.` files, not its `sck.` sockets or a querier's
    /// temporary file.
    public static func isRequestName(_ name: String) -> Bool {
        name.hasPrefix("ask.") && name.count > 4 && name.count <= 255 && !name.contains("/")
    }

    /// Adds `entry` at the end, once; returns whether it was added.
    @discardableResult
    public mutating func add(_ entry: Entry) -> Bool {
        guard Self.isRequestName(entry.name), !members.contains(entry) else { return false }
        guard entries.count < Self.capacity else {
            overflowed = true
            return false
        }
        entries.append(entry)
        members.insert(entry)
        return true
    }

    /// Removes `entry` (answered, withdrawn or refused); returns whether it was there.
    @discardableResult
    public mutating func remove(_ entry: Entry) -> Bool {
        guard members.remove(entry) != nil, let index = entries.firstIndex(of: entry) else { return false }
        entries.remove(at: index)
        return true
    }

    /// The request to ask next.
    public var next: Entry? { entries.first }

    public var count: Int { entries.count }

    /// How many wait besides the one being asked.
    public var waitingBesidesNext: Int { max(0, entries.count - 1) }

    /// The directory read again: every request in `found` added (those already queued keep their place). The
    /// overflow mark is cleared first, so a read that still finds more than the queue holds leaves it set, and
    /// the rest are read once there is room.
    public mutating func rescan(_ found: [Entry]) {
        overflowed = false
        for entry in found { add(entry) }
    }
}
