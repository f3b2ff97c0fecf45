// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import OTCPromptHost
import OTCPromptSystem

/// What shows that a hand-over comes from the agent executing itself (`AgentRenewal.renew`), not from a variable set
/// by hand or inherited: the new image was executed as `/proc/self/exe`, a name under which only an image of this
/// program runs this program; and it holds the read end of a pipe that the previous image filled with a nonce of 128
/// random bits, named beside the nonce in the variable. A variable alone (`env OTC_PROMPT_AGENT_RENEWAL=… otc-prompt
/// --agent`) has no such pipe, and is no renewal.
///
/// A program of the user's that forges all of it could have run anything on the user's terminal anyway: what the
/// hand-over claims about the terminal and the watch is checked too (`Terminal.reassertRawMode`,
/// `AgentRenewal.watch(covering:)`), so even then nothing is taken on trust that matters.
struct RenewalProof: Equatable, Sendable {
    /// The pipe's read end, open across the exec.
    let descriptor: Int32
    /// 32 hex digits.
    let nonce: String

    /// The name a renewal executes: the program's own image, whatever its path.
    static let executable = "/proc/self/exe"

    /// A new proof: a pipe holding a fresh nonce, its write end closed and its read end left open across an exec.
    /// The corresponding C calls are `pipe`, `fcntl`, `write` and `close`.
    static func make() -> RenewalProof? {
        var generator = SystemRandomNumberGenerator()
        let nonce = [generator.next(), generator.next()].map { (value: UInt64) in
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        // The write end never reaches the new image; the read end does (FD_CLOEXEC cleared below).
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        let written = Array(nonce.utf8).withUnsafeBytes { SystemCalls.writeAll(raw: $0, to: ends[1]) }
        _ = close(ends[1])
        guard written == nil, fcntl(ends[0], F_SETFD, 0) == 0 else {
            _ = close(ends[0])
            return nil
        }
        return RenewalProof(descriptor: ends[0], nonce: nonce)
    }

    /// "FD.NONCE", the proof's part of the variable.
    var encoded: String { "\(descriptor).\(nonce)" }

    /// The proof `field` names; nil when malformed.
    init?(_ field: Substring) {
        let parts = field.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let descriptor = Int32(parts[0]), parts[1].count == 32,
            parts[1].utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        self.init(descriptor: descriptor, nonce: String(parts[1]))
    }

    init(descriptor: Int32, nonce: String) {
        self.descriptor = descriptor
        self.nonce = nonce
    }

    /// Whether the proof holds in an image executed as `executedAs`: that is `executable`, and `descriptor` (not a
    /// standard one) is a pipe holding exactly `nonce`, already written whole. The pipe is closed once read; a
    /// descriptor that is no pipe is left alone, as it was found. The corresponding C calls are `fstat`, `fcntl`,
    /// `read` and `close`.
    func holds(executedAs: String?) -> Bool {
        guard descriptor > 2 else { return false }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFIFO else { return false }
        defer { _ = close(descriptor) }
        guard executedAs == Self.executable else { return false }
        // Never a wait: the previous image wrote the nonce whole and closed its end before the exec.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { raw in
            SystemCall.retrying("read") { Glibc.read(descriptor, raw.baseAddress, raw.count) }
        }
        return count == nonce.utf8.count && buffer[..<count].elementsEqual(nonce.utf8)
    }

    /// The name this image was executed under (the kernel's `AT_EXECFN`). The corresponding C call is `getauxval`,
    /// looked up with `dlsym` (Swift's Glibc does not import sys/auxv.h).
    static var executedFileName: String? {
        typealias AuxiliaryValue = @convention(c) (UInt) -> UInt
        guard let symbol = dlsym(nil, "getauxval") else { return nil }
        let address = unsafeBitCast(symbol, to: AuxiliaryValue.self)(UInt(AT_EXECFN))
        return UnsafePointer<CChar>(bitPattern: address).map { String(cString: $0) }
    }

    /// Closes the pipe, when an exec that was to take it failed.
    func discard() { _ = close(descriptor) }
}

extension AgentRenewal {
    /// The handed-over inotify watch, if what it watches is what the previous image's `DirectoryWatch` can have
    /// watched for the places at `paths`: every place it `watched` (each one's inode and device, as
    /// `/proc/self/fdinfo` lists them), and besides those only places and the directories above them (a place's
    /// parent, watched for its removal; the nearest directory above one that is gone). Nil otherwise, the descriptor
    /// then closed: the new image watches afresh and reads the directories again, so a request a forged watch hid is
    /// still asked. The corresponding C calls are `stat`, `open` and `read`.
    public func watch(covering paths: [String]) -> Int32? {
        guard let watch else { return nil }
        var required = Set<String>()
        var allowed = Set<String>()
        for (index, path) in paths.enumerated() {
            if hadWatched(index) {
                guard let place = Self.inode(path) else {
                    _ = close(watch)
                    return nil
                }
                required.insert(place)
            }
            var above = path
            while true {
                if let inode = Self.inode(above) { allowed.insert(inode) }
                guard let slash = above.lastIndex(of: "/"), above != "/" else { break }
                above = slash == above.startIndex ? "/" : String(above[..<slash])
            }
        }
        guard let watched = Self.watchedInodes(watch), required.isSubset(of: watched), watched.isSubset(of: allowed)
        else {
            _ = close(watch)
            return nil
        }
        return watch
    }

    /// "ino:sdev" (hex) of the file at `path`, as fdinfo prints a watch's; nil when it cannot be stat'ed.
    private static func inode(_ path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        // glibc's dev_t spread as the kernel keeps it (MAJOR << 20 | MINOR), which fdinfo prints.
        let dev = UInt64(status.st_dev)
        let major = (dev >> 8) & 0xfff | (dev >> 32) & ~0xfff
        let minor = dev & 0xff | (dev >> 12) & ~0xff
        return String(status.st_ino, radix: 16) + ":" + String(major << 20 | minor, radix: 16)
    }

    /// "ino:sdev" (hex) of each watch of the inotify instance `descriptor`, from its lines in /proc/self/fdinfo
    /// ("inotify wd:1 ino:4f2 sdev:2e mask:…"); nil when they cannot be read.
    static func watchedInodes(_ descriptor: Int32) -> Set<String>? {
        let file = SystemCall.retrying("open") { open("/proc/self/fdinfo/\(descriptor)", O_RDONLY | O_CLOEXEC) }
        guard file >= 0 else { return nil }
        defer { _ = close(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 20 {
            let count = buffer.withUnsafeMutableBytes { raw in
                SystemCall.retrying("read") { Glibc.read(file, raw.baseAddress, raw.count) }
            }
            if count < 0 { return nil }
            if count == 0 { break }
            bytes += buffer[..<count]
        }
        var inodes = Set<String>()
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix("inotify ") {
            let fields = Dictionary(
                line.split(separator: " ").compactMap { field -> (Substring, Substring)? in
                    guard let colon = field.firstIndex(of: ":") else { return nil }
                    return (field[..<colon], field[field.index(after: colon)...])
                }, uniquingKeysWith: { first, _ in first })
            guard let inode = fields["ino"], let device = fields["sdev"] else { return nil }
            inodes.insert("\(inode):\(device)")
        }
        return inodes
    }
}
