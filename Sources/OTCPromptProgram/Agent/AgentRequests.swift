import OTCPromptCore
import OTCPromptFrontEnds
import OTCPromptHost
import OTCPromptTerminal

/// What the password agent knows of its requests: its places (each a directory of requests, watched, refused, or
/// gone and awaited), their watch, the queue (`AgentQueue`), and the refusals not yet told.
///
/// `@unchecked Sendable`: the agent's thread uses it, but while the agent waits, when only the relay's thread asks
/// `matters` (the wait's session touches none of it, and `HangUpRelay.stop()` waits for that thread).
final class AgentRequests: @unchecked Sendable {
    /// A request to ask: its file, read and checked, where it was found and who could have written it.
    struct Candidate {
        var entry: AgentQueue.Entry
        var file: AskFile
        /// The file read: another put under its name later is another request.
        var identity: AgentQueue.Identity
        var path: String
        var origin: AskOrigin
        /// The PID its process may be watched by, when that means something here (`ProcessLiveness`).
        var process: Int32?
        /// The disk it unlocks when its words name none (`SystemAsk.cryptsetupVolume`).
        var disk: String?

        /// The request as the agent's model knows it: its path and its file's identity, so that an answer typed for
        /// one file never goes to the socket another file under the same name names.
        var key: String { "\(path)@\(identity.inode).\(identity.modified)" }
    }

    let places: [(path: String, owner: UInt32)]
    /// The directory of each place while it is watched.
    private(set) var directories: [AskDirectory?]
    let watch: DirectoryWatch
    private(set) var queue = AgentQueue()
    private var refusals = RefusalTally()
    /// The requests read and checked (`next`), oldest first, until answered or gone: what the agent's model knows.
    private(set) var examined: [Candidate] = []
    /// The file each examined request was read from.
    private var examinedFiles: [AgentQueue.Entry: AgentQueue.Identity] = [:]
    /// Why each place is not watched, as last told: a place refused again for the same reason is not told again.
    private var refused: [String?]
    /// What to say with the next request or wait: a directory gone or back, a system request skipped.
    private(set) var news: [String] = []
    /// Lines for the terminal that came while a field was drawn there, told between requests (`tellLines`).
    private var lines: [String] = []
    private let wording: Wording
    /// Writes a line on the terminal and in the system log.
    private let tell: (String) -> Void

    /// Opens and watches each place; one that cannot be is told (unless the previous image told it already). Nil,
    /// the reason told, when no place can be watched or the watch cannot start.
    init?(
        places: [(path: String, owner: UInt32)], renewal: AgentRenewal?, wording: Wording,
        tell: @escaping (String) -> Void
    ) {
        self.places = places
        self.wording = wording
        self.tell = tell
        directories = Array(repeating: nil, count: places.count)
        refused = Array(repeating: nil, count: places.count)
        // Only a watch of these places (and the directories above them) is taken over; anything else is watched
        // afresh, and read again.
        let handed = renewal?.watch(covering: places.map(\.path))
        if let handed {
            watch = DirectoryWatch(adopting: handed, paths: places.map(\.path))
        } else {
            do { watch = try DirectoryWatch(paths: places.map(\.path)) } catch {
                tell("otc-prompt: \(error)")
                return nil
            }
        }
        for index in places.indices {
            if renewal?.hadAwaited(index) == true {
                // Gone when the previous image let go: awaited still, unless it came back meanwhile.
                watch.awaitReturn(index)
                if watch.mayBeBack(index) { comeBack(index) }
                continue
            }
            do {
                directories[index] = try AskDirectory(path: places[index].path, owner: places[index].owner)
                try watch.watch(index)
            } catch {
                directories[index] = nil
                refused[index] = "\(error)"
                // One the previous image could not watch either was said then; one it watched is news.
                if renewal?.hadWatched(index) ?? true {
                    tell("otc-prompt: not watching \(places[index].path): \(error)")
                }
            }
        }
        guard directories.contains(where: { $0 != nil }) || places.indices.contains(where: watch.isAwaiting) else {
            tell("otc-prompt: no directory of password requests to watch; see --agent-directory")
            return nil
        }
        // A renewed agent's requests are in the watch it was handed: those it had seen were asked or refused.
        if handed == nil { rescan() }
    }

    /// Which places are watched, and which awaited: for the renewal.
    var watched: [Bool] { directories.map { $0 != nil } }
    var awaited: [Bool] { places.indices.map(watch.isAwaiting) }

    /// Takes the news to say, once.
    func takeNews() -> [String] {
        defer { news = [] }
        return news
    }

    /// Tells the lines kept meanwhile (`tell`), once: the agent calls it between requests.
    func tellLines() {
        defer { lines = [] }
        for line in lines { tell(line) }
    }

    /// The watch's changes into the queue and the places; a request turned away by a full queue is read again once
    /// there is room.
    func take(_ changes: [DirectoryWatch.Change]? = nil) {
        for change in changes ?? watch.changes() {
            switch change {
            case .added(let index, let name):
                // A request its querier removed before closing it (systemd-ask-password does) is no request.
                if let directory = directories[index], directory.contains(name) {
                    queue.arrived(.init(directory: index, name: name))
                }
            case .removed(let index, let name): queue.gone(.init(directory: index, name: name))
            case .lost: rescan()
            case .directoryGone(let index): lose(index)
            case .directoryMayBeBack(let index): if watch.mayBeBack(index) { comeBack(index) }
            }
        }
        if queue.wantsRescan { rescan() }
    }

    /// Whether a change ends the agent's wait: a request that is there, a directory gone or back.
    func matters(_ change: DirectoryWatch.Change) -> Bool {
        switch change {
        case .added(let index, let name):
            AgentQueue.isRequestName(name) && directories[index]?.contains(name) == true
        case .lost, .directoryGone: true
        case .directoryMayBeBack(let index): watch.mayBeBack(index)
        case .removed: false
        }
    }

    /// The next request to ask, read and checked; those refused are told (one line a reason) and those that cannot
    /// be asked (their process gone, their time passed, the system's to a user's agent) skipped, all remembered.
    func next(atMicroseconds now: UInt64) -> Candidate? {
        defer { tellRefusals() }
        while true {
            // Requests a full queue turned away are read once it has room (each file once: `AgentQueue.skip`).
            if queue.wantsRescan { rescan() }
            guard let entry = queue.takeNext() else { return nil }
            guard let directory = directories[entry.directory] else { continue }
            let file: AskFile
            let identity: AgentQueue.Identity
            do { (file, identity) = try directory.readIdentified(entry.name) } catch {
                if case .unreadable(let name, let errno) = error, errno == .noSuchFileOrDirectory {
                    // A request answered or given up between the listing and the read is no news.
                    if name == entry.name || !directory.contains(entry.name) { continue }
                    // Its socket gone, its querier is: skipped as one whose process is gone, and remembered, or
                    // every reading of a flooded directory would queue it again.
                    queue.skip(entry, identity: directory.identity(of: entry.name))
                    continue
                }
                refusals.record(entry.name, reason: Self.reason(error))
                queue.skip(entry, identity: directory.identity(of: entry.name))
                continue
            }
            if let candidate = candidate(entry, file, identity, in: directory, at: now) { return candidate }
            queue.skip(entry, identity: identity)
        }
    }

    /// The watch's changes taken, and each request queued since read and checked now (`next`), once; those whose
    /// file is gone, or is another file now, forgotten (another file under the name is read as a new request).
    func examine(atMicroseconds now: UInt64) {
        take()
        let kept = examined.filter(isThere)
        if kept.count != examined.count {
            for gone in examined where !isThere(gone) {
                examinedFiles[gone.entry] = nil
                // Replaced rather than removed: the file now under its name is read, whether or not the watch
                // has told of it yet.
                if directories[gone.entry.directory]?.contains(gone.entry.name) == true { queue.arrived(gone.entry) }
            }
            examined = kept
        }
        while let candidate = next(atMicroseconds: now) {
            if let known = examinedFiles[candidate.entry] {
                if known == candidate.identity { continue }
                examined.removeAll { $0.entry == candidate.entry }
            }
            examinedFiles[candidate.entry] = candidate.identity
            examined.append(candidate)
        }
    }

    /// Whether `candidate`'s file is still under its name: the one it was read from, not another put in its place.
    func isThere(_ candidate: Candidate) -> Bool {
        directories[candidate.entry.directory]?.identity(of: candidate.entry.name) == candidate.identity
    }

    /// `candidate` was answered, withdrawn or given up: never asked again (a new file under its name is a new
    /// request, kept if it was read already).
    func forget(_ candidate: Candidate) {
        guard examinedFiles[candidate.entry] == candidate.identity else { return }
        examinedFiles[candidate.entry] = nil
        examined.removeAll { $0.entry == candidate.entry }
    }

    /// `file` as a request to ask, or nil when it is not to be asked (as systemd's agents: its process gone, its
    /// time passed; a request of the system's to an agent that is not root).
    private func candidate(
        _ entry: AgentQueue.Entry, _ file: AskFile, _ identity: AgentQueue.Identity, in directory: AskDirectory,
        at now: UInt64
    ) -> Candidate? {
        let verdict = ProcessLiveness.judge(pid: file.pid, mark: file.poster)
        guard verdict != .gone, !file.hasExpired(atMicroseconds: now) else { return nil }
        if directory.owner == 0 && UserAccount.currentUID != 0 {
            if !news.contains(wording.agentNeedsRoot) { news.append(wording.agentNeedsRoot) }
            return nil
        }
        // A value out of range took its default (no process watched, no time limit): said, as the request is asked.
        for problem in file.problems { tell("otc-prompt: \(entry.name): \(problem)") }
        // Only root could write in a directory of root's: any other's `Id=` is a program's claim.
        let origin: AskOrigin = directory.owner == 0 ? .system : .user
        // systemd-cryptsetup's FIDO2 PIN names no disk; its command line does. Read only for a system request.
        var disk: String?
        if verdict == .running, let asked = AgentFrontEnd.systemAsk(file, from: origin),
            asked.secret == .securityTokenPIN(token: nil), asked.disk == nil
        {
            disk = file.pid.flatMap { ProcessTable.arguments(pid: $0) }.flatMap(SystemAsk.cryptsetupVolume)
        }
        return Candidate(
            entry: entry, file: file, identity: identity, path: directory.path + "/" + entry.name, origin: origin,
            process: verdict == .running ? (file.poster?.pid ?? file.pid) : nil, disk: disk)
    }

    /// What a request's arrival runs before its first byte, run once on a sample (`AgentProgram.rehearse`).
    func rehearse() {
        let sample = DirectoryWatch.Change.added(directory: 0, name: "ask.rehearsal")
        _ = matters(sample)
        DirectoryWatch.rehearse()
        var scratch = AgentQueue()
        scratch.arrived(.init(directory: 0, name: "ask.rehearsal"))
        _ = scratch.waiting { _ in true }
        _ = scratch.takeNext()
        let file = AskFile(pid: 1, socket: "/run/systemd/ask-password/sck.0", message: "Passphrase")
        _ = try? AskFile.parse(Array(file.rendered().utf8))
        _ = ProcessLiveness.judge(pid: file.pid, mark: file.poster)
    }

    private func tellRefusals() {
        lines += refusals.take().map { "otc-prompt: " + $0 }
        tellLines()
    }

    /// Why a request was refused, the same words for every file refused for the same reason.
    private static func reason(_ refusal: AskDirectory.Refusal) -> String {
        if case .unreadable(_, let errno) = refusal { return "it cannot be read (\(errno))" }
        return refusal.description
    }

    /// Every watched directory read again (`AgentQueue.rescan`).
    private func rescan() {
        for (index, directory) in directories.enumerated() {
            guard let directory else { continue }
            queue.rescan(directory: index, found: directory.requests())
        }
    }

    /// The place at `index` was removed or moved away: said, and its return awaited.
    private func lose(_ index: Int) {
        guard directories[index] != nil else { return }
        directories[index] = nil
        queue.forget(directory: index)
        watch.awaitReturn(index)
        news.append(wording.agentDirectoryGone(places[index].path))
        SystemLog.warning("\(places[index].path) was removed or moved away; waiting for it to come back")
        if watch.mayBeBack(index) { comeBack(index) }
    }

    /// The place at `index` may be back: watched and read again when it is there and may be trusted; awaited from
    /// nearer when only a directory above it is new; told once when it is there but refused.
    private func comeBack(_ index: Int) {
        let place = places[index]
        let why: String
        do {
            let directory = try AskDirectory(path: place.path, owner: place.owner)
            do {
                try watch.watch(index)
                directories[index] = directory
                refused[index] = nil
                queue.rescan(directory: index, found: directory.requests())
                news.append(wording.agentDirectoryBack(place.path))
                SystemLog.warning("watching \(place.path) again")
                return
            } catch { why = "\(error)" }
        } catch .missing {
            // Watched from nearer now (a parent came back first); what was made below it before that watch was
            // added sends no event, so it is looked for once the watch is there (`lose` does the same).
            watch.awaitReturn(index)
            if watch.mayBeBack(index) { comeBack(index) }
            return
        } catch { why = "\(error)" }
        watch.awaitReturn(index)
        // Kept for the agent's loop: this may come while a field is drawn on the terminal.
        if refused[index] != why { lines.append("otc-prompt: not watching \(place.path): \(why)") }
        refused[index] = why
    }
}
