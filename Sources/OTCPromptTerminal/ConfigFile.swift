#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Why the configuration file could not be read, in one line.
public struct ConfigFileError: Error, Equatable, CustomStringConvertible {
    public var description: String
}

/// Reads the user's configuration file: the one file read the preferences need.
public enum ConfigFile {
    /// Larger than any sensible configuration; a bound so a wrong path (a log, a disk image) is refused quickly.
    public static let maximumSize = 64 * 1024

    /// The file's text, or nil when it does not exist.
    ///
    /// Opened non-blocking so a FIFO or a terminal named by mistake cannot hang the prompt. The corresponding C
    /// functions are `open`, `fstat` and `read`.
    public static func readText(path: String) throws(ConfigFileError) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        if fd < 0 {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw ConfigFileError(description: "cannot open: \(String(cString: strerror(code)))")
        }
        defer { close(fd) }

        var status = stat()
        guard fstat(fd, &status) == 0 else {
            throw ConfigFileError(description: "cannot read: \(String(cString: strerror(errno)))")
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: throw ConfigFileError(description: "is a directory, not a file")
        case S_IFREG, S_IFCHR: break  // A character device: /dev/null is a fine empty configuration.
        default: throw ConfigFileError(description: "is not a regular file")
        }

        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw ConfigFileError(description: "cannot read: \(String(cString: strerror(errno)))")
            }
            bytes.append(contentsOf: buffer[0..<count])
            if bytes.count > maximumSize {
                throw ConfigFileError(description: "larger than \(maximumSize / 1024) KiB, not a configuration file")
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigFileError(description: "is not UTF-8 text")
        }
        return text
    }
}
