// SPDX-License-Identifier: GPL-3.0-or-later
import OTCPromptCore
import OTCPromptHost

/// How otc-prompt talks to speech-dispatcher. The voice settings are nil unless the user set
/// them for otc-prompt: the user's own rate, voice, module and volume are inherited.
public struct SpeechDispatcherOptions: Equatable, Sendable {
    /// Sent as `SET self LANGUAGE` when not nil.
    public var language: Language?
    /// A speech-dispatcher synthesis voice (`spd-say -L` lists them), sent as `SYNTHESIS_VOICE`.
    public var voice: String?
    /// Words per minute (80...450), sent as SSIP's rate (see `SSIP.rate(wordsPerMinute:)`).
    public var rate: Int?
    /// Start `speech-dispatcher --spawn` when nothing answers on the socket, as libspeechd does.
    public var autospawn: Bool
    /// The longest a connect, and each reply, may take before the server counts as gone.
    public var replyTimeout: Duration
    /// The longest `speech-dispatcher --spawn` may take to start the server.
    public var spawnTimeout: Duration

    public init(
        language: Language? = nil, voice: String? = nil, rate: Int? = nil, autospawn: Bool = false,
        replyTimeout: Duration = .seconds(1), spawnTimeout: Duration = .seconds(5)
    ) {
        self.language = language
        self.voice = voice
        self.rate = rate
        self.autospawn = autospawn
        self.replyTimeout = replyTimeout
        self.spawnTimeout = spawnTimeout
    }

    /// The commands that open a session, each answered by one reply: who we are (so the user can
    /// give otc-prompt its own settings in speech-dispatcher's client configuration), the events
    /// that say when our speech began and ended, our priority, SSML, then only the settings given.
    public func openingCommands(user: String) -> [[UInt8]] {
        var commands = [
            SSIP.command("SET self CLIENT_NAME", "\(user):otc-prompt:main"),
            SSIP.command("SET self NOTIFICATION begin on"),
            SSIP.command("SET self NOTIFICATION end on"),
            SSIP.command("SET self NOTIFICATION cancel on"),
            SSIP.command("SET self PRIORITY", SpeechDispatcherBackend.priority.rawValue),
            SSIP.command("SET self SSML_MODE on"),
        ]
        if let language { commands.append(SSIP.command("SET self LANGUAGE", Self.languageCode(language))) }
        if let voice { commands.append(SSIP.command("SET self SYNTHESIS_VOICE", voice)) }
        if let rate { commands.append(SSIP.command("SET self RATE", String(SSIP.rate(wordsPerMinute: rate)))) }
        return commands
    }

    /// The language as speech-dispatcher names it.
    static func languageCode(_ language: Language) -> String {
        language.speechDispatcherCode
    }
}

/// Why speech-dispatcher cannot be used. Each description is one line for the terminal.
public enum SpeechDispatcherError: Error, Equatable, CustomStringConvertible {
    /// `SPEECHD_ADDRESS` names a method other than unix_socket.
    case unsupportedAddress(method: String)
    /// Nothing answers on the socket (and autospawn was off, or did not help).
    case unreachable(HostError)
    /// The server refused a command of the opening; `reply` is its status line.
    case refused(command: String, reply: String)
    /// The server sent something that is not SSIP.
    case notSSIP(line: String)
    /// The socket, its directory or the server behind it is another user's: a code is never sent there.
    case notYours(path: String, why: String)

    public var description: String {
        switch self {
        case .unsupportedAddress(let method):
            return "speech-dispatcher: SPEECHD_ADDRESS method '\(method)' is not supported, only unix_socket:PATH"
        case .unreachable(let error):
            return "speech-dispatcher does not answer: \(error)"
        case .refused(let command, let reply):
            return "speech-dispatcher refused '\(command)': \(reply)"
        case .notSSIP(let line):
            return "speech-dispatcher's socket answered something that is not SSIP: \(line.prefix(60))"
        case .notYours(let path, let why):
            return "speech-dispatcher at \(path) is refused: \(why)"
        }
    }
}
