// SPDX-License-Identifier: GPL-3.0-or-later
import OTCPromptSystem

/// What went wrong on the machine below the prompt (its terminal, processes, sockets and files), each told as one line
/// that says what to do.
///
/// The one error idiom of this module and OTCPromptTerminal, which builds on it: a call that fails throws this. Only
/// best-effort writes answer a Bool (false: the reader has gone, nothing else to say), and what may simply not be
/// there (no configuration file, no private store) is nil.
public enum HostError: Error, Equatable, CustomStringConvertible {
    /// Neither /dev/tty nor a terminal on stdin: there is nowhere to prompt (exit 74).
    case noTerminal
    /// A system call failed; `call` names it (e.g. "tcsetattr").
    case system(Errno, call: String)
    /// A file named by `option` (--speech-log, --audio-file) could not be opened for writing.
    case outputFile(path: String, option: String, Errno)
    /// A file named by `option` exists and is not one the prompt may write into (another user's, say): nothing was
    /// written to it.
    case untrustedFile(path: String, option: String, FileTrust.Refusal)
    /// The code could not be written to standard output.
    case standardOutput(Errno)
    /// A second `SignalWatcher` was created while one is installed; a process has one.
    case signalWatcherAlreadyInstalled
    /// A call on a local socket (the speech server's) failed.
    case socket(path: String, Errno, call: String)
    /// The peer of a local socket did not answer in time.
    case socketTimedOut(path: String, call: String)
    /// The peer of a local socket closed the connection.
    case socketClosed(path: String)
    /// A helper program (speech-dispatcher --spawn) could not be started, or did not end in time.
    case program(path: String, reason: String)
    /// The `--check` command could not be started; `call` names what failed (e.g. "posix_spawn").
    case checkCommand(Errno, call: String)
    /// The configuration file exists but could not be read as one (why, in words).
    case configFile(String)
    /// The configuration file exists but cannot be read (why, in words: EACCES, EMFILE, EIO).
    case unreadableConfig(String)
    /// The configuration file, or a directory above it, is one that someone other than the user or root may have
    /// written (why, in words): it is not believed.
    case untrustedConfig(String)
    /// A question for a password agent could not be posted at `path` (why, in words): its directory is not the
    /// user's alone, or the socket or the file could not be made.
    case cannotPost(path: String, reason: String)

    /// The door's error, told as the host's: `.system` with the same errno and call.
    public init(_ error: SystemCallError) { self = .system(error.errno, call: error.call) }

    public var description: String {
        switch self {
        case .noTerminal:
            return "no terminal to prompt on: /dev/tty cannot be opened and standard input is not a terminal;"
                + " run otc-prompt from an interactive terminal"
        case .system(let errno, let call):
            return "\(call) failed on the terminal: \(errno.description);"
                + " the terminal may have gone away, run otc-prompt again from a working terminal"
        case .outputFile(let path, let option, let errno):
            let why =
                switch errno {
                case .noSuchAddressOrDevice: "it is a FIFO that no program is reading"
                case .tooManySymbolicLinkLevels: "it is a symbolic link, which is never followed"
                default: errno.description
                }
            return "cannot write \(path) for \(option): \(why);"
                + " give \(option) a file in a directory you can write to"
        case .untrustedFile(let path, let option, let refusal):
            return "refusing to write \(path) for \(option): \(refusal), so what it holds could reach someone else;"
                + " nothing was written; give \(option) a new name or a file of your own"
        case .standardOutput(let errno):
            let what: String
            switch errno {
            case .brokenPipe: what = "standard output is a broken pipe (whatever read it has exited)"
            case .badFileDescriptor: what = "standard output is closed"
            default: what = "writing to standard output failed: \(errno.description)"
            }
            return "could not print the code: \(what); run otc-prompt with standard output open,"
                + " for example code=$(otc-prompt)"
        case .signalWatcherAlreadyInstalled:
            return "signal handling is already installed in this process; create only one SignalWatcher"
        case .socket(let path, let errno, let call):
            return "\(call) failed on \(path): \(errno.description); is the speech server running?"
        case .socketTimedOut(let path, let call):
            return
                "the speech server at \(path) did not answer in time (\(call)); restart it or choose another --speech"
        case .socketClosed(let path):
            return "the speech server at \(path) closed the connection; restart it or choose another --speech"
        case .program(let path, let reason):
            return "could not run \(path): \(reason)"
        case .checkCommand(let errno, let call):
            return "cannot run the --check command: \(call) failed: \(errno.description)"
        case .configFile(let reason):
            return reason
        case .unreadableConfig(let reason):
            return reason
        case .untrustedConfig(let reason):
            return "not believed: \(reason)"
        case .cannotPost(let path, let reason):
            return "cannot post the question at \(path): \(reason)"
        }
    }
}
