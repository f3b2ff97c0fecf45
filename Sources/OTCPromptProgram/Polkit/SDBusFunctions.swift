import Glibc
import OTCPromptSystem

/// The part of sd-bus (libsystemd.so.0, LGPL-2.1+) the polkit agent calls, resolved once when the agent starts: no
/// other run maps libsystemd, and the binary never needs it at load time. Declared here with the signatures of
/// <systemd/sd-bus.h> (systemd 252), so that building needs no libsystemd-dev: only functions with fixed arguments,
/// since Swift cannot call C's variadic ones through a pointer. The agent's object is a fallback handler
/// (`sd_bus_add_object`) rather than a vtable, so no struct of sd-bus's is laid out here; a handler has no
/// SD_BUS_VTABLE_UNPRIVILEGED check to pass, and polkitd's calls reach it.
struct SDBusFunctions: @unchecked Sendable {
    typealias Bus = OpaquePointer
    typealias Message = OpaquePointer
    typealias Handler = @convention(c) (Message?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32
    typealias Text = UnsafePointer<CChar>

    static let soname = "libsystemd.so.0"
    static let loaded = Result { () throws(SharedLibraryError) in try SDBusFunctions(SharedLibrary.open(soname)) }

    let openSystem: @convention(c) (UnsafeMutablePointer<Bus?>) -> Int32
    let flushCloseUnref: @convention(c) (Bus?) -> Bus?
    let addObject:
        @convention(c) (Bus?, UnsafeMutablePointer<OpaquePointer?>?, Text, Handler, UnsafeMutableRawPointer?) -> Int32
    let process: @convention(c) (Bus?, UnsafeMutablePointer<Message?>?) -> Int32
    let getFD: @convention(c) (Bus?) -> Int32
    let getEvents: @convention(c) (Bus?) -> Int32
    let getTimeout: @convention(c) (Bus?, UnsafeMutablePointer<UInt64>) -> Int32
    let newMethodCall: @convention(c) (Bus?, UnsafeMutablePointer<Message?>, Text?, Text, Text?, Text) -> Int32
    let newMethodReturn: @convention(c) (Message?, UnsafeMutablePointer<Message?>) -> Int32
    let appendBasic: @convention(c) (Message?, CChar, UnsafeRawPointer?) -> Int32
    let openContainer: @convention(c) (Message?, CChar, Text?) -> Int32
    let closeContainer: @convention(c) (Message?) -> Int32
    let call:
        @convention(c) (Bus?, Message?, UInt64, UnsafeMutableRawPointer?, UnsafeMutablePointer<Message?>?) -> Int32
    let send: @convention(c) (Bus?, Message?, UnsafeMutablePointer<UInt64>?) -> Int32
    let messageRef: @convention(c) (Message?) -> Message?
    let messageUnref: @convention(c) (Message?) -> Message?
    let isMethodCall: @convention(c) (Message?, Text?, Text?) -> Int32
    let readBasic: @convention(c) (Message?, CChar, UnsafeMutableRawPointer?) -> Int32
    let enterContainer: @convention(c) (Message?, CChar, Text?) -> Int32
    let exitContainer: @convention(c) (Message?) -> Int32
    let peekType: @convention(c) (Message?, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Text?>?) -> Int32
    let skip: @convention(c) (Message?, Text?) -> Int32
    let replyMethodError: @convention(c) (Message?, UnsafeRawPointer?) -> Int32
    let errorFree: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let pidGetSession: @convention(c) (pid_t, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32
    let getSender: @convention(c) (Message?) -> Text?
    let getNameCreds: @convention(c) (Bus?, Text, UInt64, UnsafeMutablePointer<OpaquePointer?>) -> Int32
    let querySenderCreds: @convention(c) (Message?, UInt64, UnsafeMutablePointer<OpaquePointer?>) -> Int32
    let credsGetUniqueName: @convention(c) (OpaquePointer?, UnsafeMutablePointer<Text?>) -> Int32
    let credsGetEUID: @convention(c) (OpaquePointer?, UnsafeMutablePointer<uid_t>) -> Int32
    let credsUnref: @convention(c) (OpaquePointer?) -> OpaquePointer?

    /// `SD_BUS_CREDS_EUID` and `SD_BUS_CREDS_UNIQUE_NAME` of <systemd/sd-bus.h>.
    static let credsEUID: UInt64 = 1 << 4
    static let credsUniqueName: UInt64 = 1 << 31

    /// The corresponding C function is `dlsym`, once for each.
    private init(_ library: SharedLibrary) throws(SharedLibraryError) {
        openSystem = try library.function("sd_bus_open_system")
        flushCloseUnref = try library.function("sd_bus_flush_close_unref")
        addObject = try library.function("sd_bus_add_object")
        process = try library.function("sd_bus_process")
        getFD = try library.function("sd_bus_get_fd")
        getEvents = try library.function("sd_bus_get_events")
        getTimeout = try library.function("sd_bus_get_timeout")
        newMethodCall = try library.function("sd_bus_message_new_method_call")
        newMethodReturn = try library.function("sd_bus_message_new_method_return")
        appendBasic = try library.function("sd_bus_message_append_basic")
        openContainer = try library.function("sd_bus_message_open_container")
        closeContainer = try library.function("sd_bus_message_close_container")
        call = try library.function("sd_bus_call")
        send = try library.function("sd_bus_send")
        messageRef = try library.function("sd_bus_message_ref")
        messageUnref = try library.function("sd_bus_message_unref")
        isMethodCall = try library.function("sd_bus_message_is_method_call")
        readBasic = try library.function("sd_bus_message_read_basic")
        enterContainer = try library.function("sd_bus_message_enter_container")
        exitContainer = try library.function("sd_bus_message_exit_container")
        peekType = try library.function("sd_bus_message_peek_type")
        skip = try library.function("sd_bus_message_skip")
        replyMethodError = try library.function("sd_bus_reply_method_error")
        errorFree = try library.function("sd_bus_error_free")
        pidGetSession = try library.function("sd_pid_get_session")
        getSender = try library.function("sd_bus_message_get_sender")
        getNameCreds = try library.function("sd_bus_get_name_creds")
        querySenderCreds = try library.function("sd_bus_query_sender_creds")
        credsGetUniqueName = try library.function("sd_bus_creds_get_unique_name")
        credsGetEUID = try library.function("sd_bus_creds_get_euid")
        credsUnref = try library.function("sd_bus_creds_unref")
    }
}

/// An `sd_bus_error` (`{ const char *name; const char *message; int _need_free; }`), as raw memory: a call's error
/// filled by sd-bus and freed by it, or a reply's error whose strings are ours.
final class SDBusError {
    /// Three machine words cover the struct with its padding on every 64- and 32-bit ABI.
    static let size = 3 * MemoryLayout<UInt>.size
    let raw: UnsafeMutableRawPointer
    private var owned: [UnsafeMutablePointer<CChar>] = []

    init() {
        raw = .allocate(byteCount: Self.size, alignment: MemoryLayout<UInt>.alignment)
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: Self.size)
    }

    /// An error to reply with: `name`, `message`.
    convenience init(name: String, message: String) {
        self.init()
        let name = strdup(name)!
        let message = strdup(message)!
        owned = [name, message]
        raw.storeBytes(of: UnsafePointer(name), as: UnsafePointer<CChar>.self)
        raw.storeBytes(
            of: UnsafePointer(message), toByteOffset: MemoryLayout<UInt>.size, as: UnsafePointer<CChar>.self)
    }

    deinit {
        if owned.isEmpty, case .success(let functions) = SDBusFunctions.loaded { functions.errorFree(raw) }
        for pointer in owned { free(pointer) }
        raw.deallocate()
    }

    /// The error's name and message, once sd-bus has filled it.
    var description: String {
        let name = raw.load(as: UnsafePointer<CChar>?.self)
        let message = raw.load(fromByteOffset: MemoryLayout<UInt>.size, as: UnsafePointer<CChar>?.self)
        return [name, message].compactMap { $0.map { String(cString: $0) } }.joined(separator: ": ")
    }
}
