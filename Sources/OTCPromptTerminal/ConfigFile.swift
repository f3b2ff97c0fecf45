#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Reads the user's configuration file: the one file read the preferences need.
public enum ConfigFile {
    /// Larger than any sensible configuration; a bound so a wrong path (a log, a disk image) is refused quickly.
    public static let maximumSize = 64 * 1024

    /// The file's text, or nil when it does not exist.
    ///
    /// Opened non-blocking so a FIFO or a terminal named by mistake cannot hang the prompt. The corresponding C
    /// functions are `open`, `fstat` and `read`.
    public static func readText(path: String) throws(TerminalError) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        if fd < 0 {
            let failure = SystemCalls.errno
            if failure == .noSuchFileOrDirectory || failure.rawValue == ENOTDIR { return nil }
            throw .configFile("cannot open: \(failure)")
        }
        defer { close(fd) }

        var status = stat()
        guard fstat(fd, &status) == 0 else {
            throw .configFile("cannot read: \(SystemCalls.errno)")
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: throw .configFile("is a directory, not a file")
        case S_IFREG, S_IFCHR: break  // A character device: /dev/null is a fine empty configuration.
        default: throw .configFile("is not a regular file")
        }

        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in
                SystemCalls.retryingOnInterrupt { read(fd, raw.baseAddress, raw.count) }
            }
            if count == 0 { break }
            if count < 0 { throw .configFile("cannot read: \(SystemCalls.errno)") }
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
