import CBrlAPI
import OTCPromptCore
import OTCPromptSystem

#if canImport(Glibc)
    import Glibc
#endif

/// One BrlAPI connection (a handle of its own), and every BrlAPI call the prompt makes. Used from one thread at a time:
/// `BrailleOutput`'s, which is the only one that may wait on brltty.
final class BrailleConnection {
    private let functions: BrlAPIFunctions
    private let handle: OpaquePointer
    private let memory: UnsafeMutableRawPointer
    /// Filled by libbrlapi's exception handler: an error the server sent for a request nothing waited on.
    private let exceptions = ExceptionRecord()
    /// The connection's socket: readable when keys (or the server's close) arrive.
    let descriptor: Int32
    private var isOpen = true

    private init(functions: BrlAPIFunctions, memory: UnsafeMutableRawPointer, descriptor: Int32) {
        self.functions = functions
        self.memory = memory
        self.handle = OpaquePointer(memory)
        self.descriptor = descriptor
    }

    deinit {
        close()
        memory.deallocate()
    }

    /// Connects to `address` and authorises with `auth` (BRLAPI_AUTH's forms; nil: libbrlapi's default, its key file),
    /// then makes sure the connection reached the server judged: the same socket, run by `owner` when known.
    /// The socket is closed on exec, so no check command or renewed agent inherits it.
    /// The corresponding C functions are `brlapi__openConnection`, `getsockopt(SO_PEERCRED)`, `getpeername`, `fcntl`.
    static func open(address: BrailleAddress, auth: String?, owner: UInt32?) throws(BrailleError) -> BrailleConnection {
        let functions = try BrlAPIFunctions.loaded.get()
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(functions.getHandleSize(), 1), alignment: 16)
        let descriptor: Int32 = address.setting.withCString { host in
            withOptionalCString(auth) { auth in
                var settings = brlapi_connectionSettings_t(auth: auth, host: host)
                return functions.openConnection(OpaquePointer(memory), &settings, nil)
            }
        }
        guard descriptor >= 0 else {
            let reason = functions.lastError()
            memory.deallocate()
            throw .brlapi(call: "openConnection to \(address.readable)", reason: reason)
        }
        let connection = BrailleConnection(functions: functions, memory: memory, descriptor: descriptor)
        _ = SystemCall.retrying("fcntl") { fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        // libbrlapi's own handler aborts the process; this one keeps the error for the next call to report.
        functions.setClientData(connection.handle, Unmanaged.passUnretained(connection.exceptions).toOpaque())
        _ = functions.setExceptionHandler(connection.handle) { handle, error, _, _, _ in
            guard let handle, let functions = try? BrlAPIFunctions.loaded.get(),
                let record = functions.getClientData(handle)
            else { return }
            Unmanaged<ExceptionRecord>.fromOpaque(record).takeUnretainedValue().error = error
        }
        if let why = PeerCheck.mismatch(descriptor: descriptor, address: address, owner: owner) {
            connection.close()
            throw .notTheServerJudged(why)
        }
        return connection
    }

    /// The display's size in cells (columns times rows). The corresponding C function is `brlapi__getDisplaySize`.
    func displaySize() throws(BrailleError) -> Int {
        var columns: UInt32 = 0
        var rows: UInt32 = 0
        guard functions.getDisplaySize(handle, &columns, &rows) == 0 else { throw failure("getDisplaySize") }
        return Int(columns) * Int(max(rows, 1))
    }

    /// The braille driver's name ("Virtual", "HandyTech"), for `--doctor`.
    /// The corresponding C function is `brlapi__getDriverName`.
    func driverName() -> String? {
        var buffer = [CChar](repeating: 0, count: 64)
        guard functions.getDriverName(handle, &buffer, buffer.count) > 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Takes the display for the tty `path` (below WINDOWPATH), with keys as brltty's commands; of the keys, only
    /// those the prompt uses come here (`BrailleKeyCode.acceptedRanges`), the rest stay brltty's.
    /// The corresponding C functions are `brlapi__enterTtyModeWithPath`, `brlapi__ignoreKeys`,
    /// `brlapi__acceptKeyRanges`.
    func enter(path: [Int32]) throws(BrailleError) {
        let entered = path.map { Int32($0) }.withUnsafeBufferPointer {
            functions.enterTtyModeWithPath(handle, $0.baseAddress, Int32($0.count), nil)
        }
        guard entered >= 0 else { throw failure("enterTtyMode") }
        let ranges = BrailleKeyCode.acceptedRanges.map { brlapi_range_t(first: $0.first, last: $0.last) }
        guard functions.ignoreKeys(handle, OTC_BRLAPI_RANGE_TYPE_ALL, nil, 0) == 0,
            functions.acceptKeyRanges(handle, ranges, UInt32(ranges.count)) == 0
        else {
            _ = functions.leaveTtyMode(handle)
            throw failure("acceptKeyRanges")
        }
    }

    /// Gives the display back to brltty. The corresponding C function is `brlapi__leaveTtyMode`.
    func leave() {
        _ = functions.leaveTtyMode(handle)
    }

    /// Writes `window` on the whole display, its cursor drawn where it has one.
    /// The corresponding C function is `brlapi__write`.
    func write(_ window: BrailleWindow) throws(BrailleError) {
        let bytes = Array(window.text.utf8)
        let written = bytes.withUnsafeBufferPointer { text in
            "UTF-8".withCString { charset in
                text.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) { text in
                    var arguments = brlapi_writeArguments_t(
                        displayNumber: OTC_BRLAPI_DISPLAY_DEFAULT, regionBegin: 1,
                        regionSize: Int32(window.cells.count),
                        text: text, textSize: Int32(bytes.count), andMask: nil, orMask: nil,
                        cursor: window.cursor.map { Int32($0 + 1) } ?? OTC_BRLAPI_CURSOR_OFF, charset: charset)
                    return functions.write(handle, &arguments)
                }
            }
        }
        guard written == 0 else { throw failure("write") }
    }

    /// The keys waiting, without waiting for more; nil once the server has gone or failed.
    /// The corresponding C function is `brlapi__readKey`.
    func readKeys() -> [UInt64]? {
        var codes: [UInt64] = []
        while true {
            var code: brlapi_keyCode_t = 0
            switch functions.readKey(handle, 0, &code) {
            case 1: codes.append(code)
            case 0: return exceptions.error == nil ? codes : nil
            default: return nil
            }
        }
    }

    /// Closes the connection: brltty takes the display back if it was still held.
    /// The corresponding C function is `brlapi__closeConnection`.
    func close() {
        guard isOpen else { return }
        isOpen = false
        functions.closeConnection(handle)
    }

    private func failure(_ call: String) -> BrailleError {
        .brlapi(call: call, reason: functions.lastError())
    }
}

/// Where libbrlapi's exception handler leaves the error, reached through the handle's client data.
private final class ExceptionRecord: @unchecked Sendable {
    var error: Int32?
}

/// `body` with `text` as a C string, or with NULL.
private func withOptionalCString<Result>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> Result) -> Result {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}
