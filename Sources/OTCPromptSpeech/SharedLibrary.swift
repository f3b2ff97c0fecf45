#if canImport(Glibc)
    import Glibc
#endif

/// A C library loaded when speech starts rather than at exec (the footprint and start-up targets): a run that does not speak
/// never maps libespeak-ng, libpcaudio, libpulse and their thirty dependencies, and a machine
/// without them gets text announcements instead of a program that cannot start.
///
/// The only place that calls the dynamic loader, and it stays here rather than in the door (OTCPromptSystem):
/// `dlopen` and `dlsym` report through `dlerror`, never errno, so the door's EINTR rule and error type do not
/// fit them, and this is their one caller. A library is never unloaded: its functions are
/// kept in process-wide tables (`EspeakFunctions`, `PCAudioFunctions`, `PulseFunctions`).
struct SharedLibrary: @unchecked Sendable {
    /// The name it was loaded by, for messages.
    let soname: String
    private let handle: UnsafeMutableRawPointer

    /// Loads `soname` and the libraries it needs, none of them visible to other libraries.
    ///
    /// Functions are bound at their first call (RTLD_LAZY), as the espeak-ng CLI's own are: ~0.7 ms less
    /// on the engine's start-up path (docs/performance.md). What otc-prompt calls is checked here all the
    /// same (`function(_:)` resolves each with dlsym when the library loads); most of the ~30 libraries
    /// are linked with BIND_NOW and are bound now whatever the flag; RELRO is the libraries' own either way.
    /// - Throws: `.libraryUnavailable` with the loader's reason.
    /// The corresponding C function is `dlopen`.
    static func open(_ soname: String) throws(SpeechError) -> SharedLibrary {
        _ = dlerror()
        guard let handle = dlopen(soname, RTLD_LAZY | RTLD_LOCAL) else {
            throw .libraryUnavailable(soname, reason: loaderError() ?? "cannot be loaded")
        }
        return SharedLibrary(soname: soname, handle: handle)
    }

    /// The function `name`, as the C function pointer type `Function` the module's header declares.
    /// - Throws: `.libraryUnavailable` when the library has no such symbol (another version of it).
    /// The corresponding C function is `dlsym`.
    func function<Function>(_ name: String, as type: Function.Type = Function.self) throws(SpeechError) -> Function {
        precondition(MemoryLayout<Function>.size == MemoryLayout<UnsafeRawPointer>.size, "not a C function pointer")
        _ = dlerror()
        guard let address = dlsym(handle, name) else {
            throw .libraryUnavailable(
                soname, reason: "it has no function \(name) (\(Self.loaderError() ?? "not found"))")
        }
        return unsafeBitCast(address, to: Function.self)
    }

    /// The loader's last error, when it has one. The corresponding C function is `dlerror`.
    private static func loaderError() -> String? {
        dlerror().map { String(cString: $0) }
    }
}
