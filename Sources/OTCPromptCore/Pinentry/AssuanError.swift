/// An Assuan error reply, "ERR <code> <text> <<source>>", with the numbers libgpg-error gives them.
///
/// gpg-agent reads the code, not the text: a cancel must be GPG_ERR_CANCELED from the pinentry
/// source, or gpg reports a different failure than the user chose.
public struct AssuanError: Error, Equatable, Sendable {
    /// libgpg-error's error source.
    public enum Source: UInt32, Sendable {
        /// GPG_ERR_SOURCE_PINENTRY: errors the pinentry itself decides.
        case pinentry = 5
        /// GPG_ERR_SOURCE_USER_1: libassuan's own protocol errors, as pinentry builds it.
        case assuan = 32

        var name: String {
            switch self {
            case .pinentry: "Pinentry"
            case .assuan: "User defined source 1"
            }
        }
    }

    /// The gpg-error code (the low 16 bits).
    public var code: UInt32
    public var source: Source
    /// gpg_strerror's text for the code.
    public var text: String
    /// Said after " - ", as libassuan does for syntax errors.
    public var detail: String?

    /// The number on the wire: the source in the high byte, the code in the low 16 bits.
    public var number: UInt32 { source.rawValue << 24 | code }

    /// The reply line, without its line feed.
    public var line: String {
        "ERR \(number) \(text) <\(source.name)>" + (detail.map { " - \($0)" } ?? "")
    }

    public static let canceled = AssuanError(code: 99, source: .pinentry, text: "Operation cancelled")
    public static let notConfirmed = AssuanError(code: 114, source: .pinentry, text: "Not confirmed")
    /// The dialog was ended by a signal (gpg-agent's SIGINT when gpg goes away): pinentry-tty's answer.
    public static let fullyCanceled = AssuanError(code: 198, source: .pinentry, text: "Fully canceled")
    public static let timeout = AssuanError(code: 62, source: .pinentry, text: "Timeout")
    public static let unknownOption = AssuanError(code: 174, source: .pinentry, text: "Unknown option")
    public static let parameter = AssuanError(code: 280, source: .pinentry, text: "IPC parameter error")
    public static let general = AssuanError(code: 257, source: .pinentry, text: "General IPC error")
    public static let unknownCommand = AssuanError(code: 275, source: .assuan, text: "Unknown IPC command")
    public static let notImplemented = AssuanError(code: 69, source: .assuan, text: "Not implemented")
    public static let helpNotFound = AssuanError(code: 27, source: .assuan, text: "Not found")
    public static let helpUnknownCommand = AssuanError(code: 175, source: .assuan, text: "Unknown command")

    /// libassuan's "IPC syntax error", with what was wrong.
    public static func syntax(_ detail: String) -> AssuanError {
        AssuanError(code: 276, source: .assuan, text: "IPC syntax error", detail: detail)
    }

    /// The terminal could not be used: the error gpg_error_from_syserror gives for `errno`, as
    /// pinentry-curses answers (gpg then prints "Inappropriate ioctl for device" or the like).
    /// - Parameter errno: ENOENT (2), EACCES (13); anything else is reported as ENOTTY (25).
    public static func terminalUnusable(errno: Int32) -> AssuanError {
        switch errno {
        case 2: AssuanError(code: 32849, source: .pinentry, text: "No such file or directory")
        case 13: AssuanError(code: 32769, source: .pinentry, text: "Permission denied")
        default: AssuanError(code: 32870, source: .pinentry, text: "Inappropriate ioctl for device")
        }
    }
}
