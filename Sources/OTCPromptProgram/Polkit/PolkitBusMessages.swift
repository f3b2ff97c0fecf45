import Glibc
import OTCPromptCore
import OTCPromptSystem

/// Why the polkit agent cannot run, in one line each.
enum PolkitAgentError: Error, CustomStringConvertible {
    case library(String)
    case bus(String, Errno)
    case registration(String)
    case noSubject(String)

    var description: String {
        switch self {
        case .library(let reason): "the polkit agent needs libsystemd.so.0 for D-Bus: \(reason)"
        case .bus(let what, let errno): "polkit agent: \(what): \(errno.description)"
        case .registration(let reason): "polkitd refused the agent: \(reason)"
        case .noSubject(let reason): "the polkit agent has nothing to register for: \(reason)"
        }
    }
}

/// Whose requests the agent answers, as polkitd names a subject (`(sa{sv})`).
enum PolkitSubject: Equatable {
    /// `--process PID`: that process (and polkitd checks its start time, so a reused PID is another process).
    case process(pid: UInt32, startTime: UInt64)
    /// The login session the agent runs in (logind's id).
    case session(String)

    var description: String {
        switch self {
        case .process(let pid, let start): "unix-process:\(pid):\(start)"
        case .session(let id): "unix-session:\(id)"
        }
    }
}

/// Appends to an sd-bus message, one basic value or container at a time (`sd_bus_message_append_basic`,
/// `sd_bus_message_open_container`): the message's wire format is sd-bus's.
struct BusMessageWriter {
    let functions: SDBusFunctions
    let message: OpaquePointer

    func string(_ text: String) {
        _ = text.withCString { functions.appendBasic(message, CChar(UInt8(ascii: "s")), $0) }
    }

    func basic<Value>(_ type: Character, _ value: Value) {
        var value = value
        _ = withUnsafePointer(to: &value) { functions.appendBasic(message, CChar(type.asciiValue!), $0) }
    }

    func container(_ type: Character, _ contents: String, _ body: () -> Void) {
        _ = functions.openContainer(message, CChar(type.asciiValue!), contents)
        body()
        _ = functions.closeContainer(message)
    }

    /// `(sa{sv})`: the subject's kind and its details.
    func subject(_ subject: PolkitSubject) {
        container("r", "sa{sv}") {
            switch subject {
            case .process(let pid, let start):
                string("unix-process")
                container("a", "{sv}") {
                    container("e", "sv") {
                        string("pid")
                        container("v", "u") { basic("u", pid) }
                    }
                    container("e", "sv") {
                        string("start-time")
                        container("v", "t") { basic("t", start) }
                    }
                }
            case .session(let id):
                string("unix-session")
                container("a", "{sv}") {
                    container("e", "sv") {
                        string("session-id")
                        container("v", "s") { string(id) }
                    }
                }
            }
        }
    }
}

/// Reads an sd-bus message's arguments in order (`sd_bus_message_read_basic`, `sd_bus_message_enter_container`).
struct BusMessageReader {
    let functions: SDBusFunctions
    let message: OpaquePointer?

    func string() -> String? {
        var text: UnsafePointer<CChar>?
        guard functions.readBasic(message, CChar(UInt8(ascii: "s")), &text) > 0, let text else { return nil }
        return String(cString: text)
    }

    func enter(_ type: Character, _ contents: String) -> Bool {
        functions.enterContainer(message, CChar(type.asciiValue!), contents) > 0
    }

    func exit() { _ = functions.exitContainer(message) }

    /// BeginAuthentication's `(s action_id, s message, s icon_name, a{ss} details, s cookie, a(sa{sv}) identities)`.
    func beginAuthentication() -> PolkitRequest? {
        guard let action = string(), let text = string(), string() != nil else { return nil }
        var details: [String: String] = [:]
        guard enter("a", "{ss}") else { return nil }
        while enter("e", "ss") {
            if let key = string(), let value = string() { details[key] = value }
            exit()
        }
        exit()
        guard let cookie = string(), enter("a", "(sa{sv})") else { return nil }
        var identities: [PolkitRequest.Identity] = []
        while enter("r", "sa{sv}") {
            let kind = string() ?? ""
            var uid: UInt32?
            if enter("a", "{sv}") {
                while enter("e", "sv") {
                    let key = string()
                    if key == "uid", enter("v", "u") {
                        var value: UInt32 = 0
                        if functions.readBasic(message, CChar(UInt8(ascii: "u")), &value) > 0 { uid = value }
                        exit()
                    } else {
                        _ = functions.skip(message, "v")
                    }
                    exit()
                }
                exit()
            }
            exit()
            identities.append(kind == "unix-user" && uid != nil ? .user(uid: uid!) : .other(kind: kind))
        }
        exit()
        return PolkitRequest(actionID: action, message: text, details: details, cookie: cookie, identities: identities)
    }
}

/// A wake-up pipe's two gestures: one byte written, every byte read.
enum PipeSignal {
    /// The corresponding C function is `write`.
    static func wake(_ descriptor: Int32) {
        var byte: UInt8 = 1
        _ = SystemCall.retrying("write") { Glibc.write(descriptor, &byte, 1) }
    }

    /// The corresponding C function is `read`.
    static func drain(_ descriptor: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64)
        while buffer.withUnsafeMutableBytes({ raw in
            SystemCall.retrying("read") { Glibc.read(descriptor, raw.baseAddress, raw.count) }
        }) > 0 {}
    }
}
