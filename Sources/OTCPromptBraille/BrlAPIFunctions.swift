import CBrlAPI

#if canImport(Glibc)
    import Glibc
#endif

/// libbrlapi's functions that `BrailleConnection` calls, resolved once, the first time a display is to be used: a run
/// without braille never maps the library, and a machine without it has no braille output rather than a program that
/// cannot start (libbrlapi0.8 is a recommendation of the package, not a dependency).
struct BrlAPIFunctions: @unchecked Sendable {
    static let soname = "libbrlapi.so.0.8"
    static let loaded = Result { () throws(BrailleError) in try BrlAPIFunctions(soname) }

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

    /// Loads `soname` with its dependencies, none of them visible to other libraries, and resolves each function.
    /// Functions are bound at their first call (RTLD_LAZY), as the speech libraries' are; the library is never
    /// unloaded. The corresponding C functions are `dlopen` and `dlsym`.
    private init(_ soname: String) throws(BrailleError) {
        _ = dlerror()
        guard let handle = dlopen(soname, RTLD_LAZY | RTLD_LOCAL) else {
            throw .libraryUnavailable(reason: dlerror().map { String(cString: $0) } ?? "cannot be loaded")
        }
        func function<Function>(_ name: String) throws(BrailleError) -> Function {
            _ = dlerror()
            guard let address = dlsym(handle, name) else {
                throw .libraryUnavailable(reason: "it has no function \(name)")
            }
            return unsafeBitCast(address, to: Function.self)
        }
        getHandleSize = try function("brlapi_getHandleSize")
        openConnection = try function("brlapi__openConnection")
        closeConnection = try function("brlapi__closeConnection")
        setClientData = try function("brlapi__setClientData")
        getClientData = try function("brlapi__getClientData")
        setExceptionHandler = try function("brlapi__setExceptionHandler")
        getDriverName = try function("brlapi__getDriverName")
        getDisplaySize = try function("brlapi__getDisplaySize")
        enterTtyModeWithPath = try function("brlapi__enterTtyModeWithPath")
        leaveTtyMode = try function("brlapi__leaveTtyMode")
        write = try function("brlapi__write")
        readKey = try function("brlapi__readKey")
        ignoreKeys = try function("brlapi__ignoreKeys")
        acceptKeyRanges = try function("brlapi__acceptKeyRanges")
        errorLocation = try function("brlapi_error_location")
        strerror = try function("brlapi_strerror_r")
    }

    /// This thread's last BrlAPI error, in words. The corresponding C functions are `brlapi_error_location` and
    /// `brlapi_strerror_r`.
    func lastError() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        _ = strerror(errorLocation(), &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
