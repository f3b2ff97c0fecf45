#if canImport(Glibc)
    import Glibc
    import OTCPromptSystem
#elseif canImport(Musl)
    import Musl
#endif

/// Reads the user's configuration file: the one file read the preferences need.
public enum ConfigFile {
    /// The longest the prompt waits for the file (nothing waits without a deadline). A
    /// local file is read in well under 10 ms, even from a cold disk; a network file system that answers
    /// at all does so within a round trip or two. One that has not answered in a second is stuck (an NFS
    /// hard mount retries for minutes, a dead sshfs or FUSE server forever), and the prompt cannot be drawn
    /// before the file is read (it sets the field), so this is also the longest the user sees nothing.
    public static let deadline: Duration = .seconds(1)

    /// How a bounded read ended.
    public enum BoundedRead: Sendable {
        /// The file's text (nil: no such file), or why it cannot be used.
        case finished(Result<String?, HostError>)
        /// The file system did not answer within the deadline; the read is left to itself on its thread.
        case timedOut
        /// A watched signal arrived first: the prompt must end as that signal.
        case signal(Int32)
    }

    /// `readConfig(path:)` on a thread of its own, waited for at most `deadline`, waking for `signals`: a file
    /// on a hung file system, whose `open` or `read` no signal interrupts, never holds the prompt. The
    /// thread blocks every signal, so they are all taken by the prompt's thread, which is never stuck.
    public static func read(path: String, within deadline: Duration = deadline, signals: SignalWatcher?)
        -> BoundedRead
    {
        let task: BackgroundTask<Result<String?, HostError>>
        do {
            task = try BackgroundTask {
                var all = sigset_t()
                sigfillset(&all)
                pthread_sigmask(SIG_BLOCK, &all, nil)
                return Result { () throws(HostError) in try readConfig(path: path) }
            }
        } catch {
            return .finished(Result { () throws(HostError) in try readConfig(path: path) })  // no thread to be had
        }
        switch task.wait(timeout: deadline, signals: signals) {
        case .finished(let result): return .finished(result)
        case .timedOut: return .timedOut
        case .signal(let signal): return .signal(signal)
        }
    }

    /// Larger than any sensible configuration; a bound so a wrong path (a log, a disk image) is refused quickly.
    public static let maximumSize = 64 * 1024
    /// /dev/null's device number, makedev(1, 3) (Linux's `new_encode_dev`; glibc's macro is not imported).
    static let nullDevice: dev_t = 1 << 8 | 3

    /// The configuration file's text, or nil when it does not exist, believed only when it is `user`'s own or root's,
    /// no one else may write it, and every directory above it is root's or `user`'s and writable by no one else
    /// (`FileTrust.configFile`, `FileTrust.checkAncestors`): whichever variable named it (`su` without `-`, `sudo -E`,
    /// `OTC_PROMPT_CONFIG`), another user's file would choose where root writes the code (`speech-log`), or that
    /// it is shown and spoken. A link is followed to the file it names, whose directories are the ones judged.
    /// - Throws: `.unreadableConfig` when it cannot be read; `.untrustedConfig` or `.configFile` when it is refused.
    /// The corresponding C functions are `realpath`, `lstat`, `open`, `fstat` and `read`.
    public static func readConfig(path: String, user: uid_t = getuid()) throws(HostError) -> String? {
        guard let resolvedName = realpath(path, nil) else {
            let failure = Errno.current
            if failure == .noSuchFileOrDirectory || failure.rawValue == ENOTDIR { return nil }
            throw .unreadableConfig("cannot open: \(failure)")
        }
        let resolved = String(cString: resolvedName)
        free(resolvedName)
        do { try FileTrust.checkAncestors(of: resolved, owner: user) } catch {
            switch error {
            case .notAPlainPath: throw .untrustedConfig("\(resolved) is not a plain path")
            case .above(let directory, .unexaminable(let errno)):
                throw .unreadableConfig("cannot examine \(directory): \(errno)")
            case .above(let directory, let refusal): throw .untrustedConfig("the directory \(directory): \(refusal)")
            }
        }
        return try readText(path: resolved, trust: .configFile(user: user))
    }

    /// The file's text, or nil when it does not exist.
    ///
    /// Only a regular file is read (and `/dev/null`, an empty configuration): a FIFO, a terminal or another
    /// device named by mistake is refused before a byte is read, so it can neither hang the prompt nor take
    /// the user's keys. Opened non-blocking, so a FIFO's open cannot wait for a writer. Waits as long as the
    /// file system does: `read(path:within:signals:)` bounds it. The corresponding C functions are `open`,
    /// `fstat` and `read`.
    /// - Parameter trust: the rule a regular file must keep, judged on what was opened; nil for the kernel's own
    ///   files (/proc).
    public static func readText(path: String, trust: FileTrust? = nil) throws(HostError) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | (trust == nil ? 0 : O_NOFOLLOW))
        if fd < 0 {
            let failure = Errno.current
            if failure == .noSuchFileOrDirectory || failure.rawValue == ENOTDIR { return nil }
            throw .unreadableConfig("cannot open: \(failure)")
        }
        defer { close(fd) }

        var status = stat()
        guard fstat(fd, &status) == 0 else {
            throw .unreadableConfig("cannot read: \(Errno.current)")
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFCHR where status.st_rdev == nullDevice: return ""  // an empty configuration
        case S_IFDIR: throw .configFile("is a directory, not a file")
        case S_IFIFO: throw .configFile("is a FIFO, not a regular file")
        case S_IFCHR: throw .configFile("is a device, not a regular file")
        case S_IFSOCK: throw .configFile("is a socket, not a regular file")
        default: throw .configFile("is not a regular file")
        }
        do { try trust?.check(FileTrust.Status(status)) } catch {
            if case .owner(let owner) = error {
                throw .untrustedConfig("it belongs to \(UserAccount.describe(owner)), not to you or root")
            }
            throw .untrustedConfig("\(error)")
        }

        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in
                SystemCall.retrying("read") { Glibc.read(fd, raw.baseAddress, raw.count) }
            }
            if count == 0 { break }
            if count < 0 { throw .unreadableConfig("cannot read: \(Errno.current)") }
            bytes.append(contentsOf: buffer[0..<count])
            if bytes.count > maximumSize {
                throw .configFile("larger than \(maximumSize / 1024) KiB, not a configuration file")
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .configFile("is not UTF-8 text")
        }
        return text
    }
}
