import CBrlAPI
import OTCPromptSystem

/// libbrlapi's functions that `BrailleConnection` calls, resolved once, the first time a display is to be used: a run
/// without braille never maps the library, and a machine without it has no braille output rather than a program that
/// cannot start (libbrlapi0.8 is a recommendation of the package, not a dependency).
struct BrlAPIFunctions: @unchecked Sendable {
    static let soname = "libbrlapi.so.0.8"
    static let loaded = Result { () throws(SharedLibraryError) in try BrlAPIFunctions(SharedLibrary.open(soname)) }
        .mapError { BrailleError.libraryUnavailable(reason: $0.reason) }

    let getHandleSize: otc_brlapi_getHandleSize
    let openConnection: otc_brlapi__openConnection
    let closeConnection: otc_brlapi__closeConnection
    let setClientData: otc_brlapi__setClientData
    let getClientData: otc_brlapi__getClientData
    let setExceptionHandler: otc_brlapi__setExceptionHandler
    let getDriverName: otc_brlapi__getDriverName
    let getDisplaySize: otc_brlapi__getDisplaySize
    let enterTtyModeWithPath: otc_brlapi__enterTtyModeWithPath
    let leaveTtyMode: otc_brlapi__leaveTtyMode
    let write: otc_brlapi__write
    let readKey: otc_brlapi__readKey
    let ignoreKeys: otc_brlapi__ignoreKeys
    let acceptKeyRanges: otc_brlapi__acceptKeyRanges
    let errorLocation: otc_brlapi_error_location
    let strerror: otc_brlapi_strerror_r

    /// Resolves each function once the library is loaded (`SharedLibrary`, as the speech libraries are: bound at
    /// their first call, never unloaded). The corresponding C function is `dlsym`.
    private init(_ library: SharedLibrary) throws(SharedLibraryError) {
        getHandleSize = try library.function("brlapi_getHandleSize")
        openConnection = try library.function("brlapi__openConnection")
        closeConnection = try library.function("brlapi__closeConnection")
        setClientData = try library.function("brlapi__setClientData")
        getClientData = try library.function("brlapi__getClientData")
        setExceptionHandler = try library.function("brlapi__setExceptionHandler")
        getDriverName = try library.function("brlapi__getDriverName")
        getDisplaySize = try library.function("brlapi__getDisplaySize")
        enterTtyModeWithPath = try library.function("brlapi__enterTtyModeWithPath")
        leaveTtyMode = try library.function("brlapi__leaveTtyMode")
        write = try library.function("brlapi__write")
        readKey = try library.function("brlapi__readKey")
        ignoreKeys = try library.function("brlapi__ignoreKeys")
        acceptKeyRanges = try library.function("brlapi__acceptKeyRanges")
        errorLocation = try library.function("brlapi_error_location")
        strerror = try library.function("brlapi_strerror_r")
    }

    /// This thread's last BrlAPI error, in words. The corresponding C functions are `brlapi_error_location` and
    /// `brlapi_strerror_r`.
    func lastError() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        _ = strerror(errorLocation(), &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
