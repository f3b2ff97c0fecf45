// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// A C library loaded when it is first needed rather than at exec (the footprint and start-up targets): a run that
/// does not speak never maps libespeak-ng, libpcaudio, libpulse and their thirty dependencies, one without braille
/// never maps libbrlapi, and a machine without them gets text announcements, or no braille, instead of a program
/// that cannot start.
///
/// The one place that calls the dynamic loader, for every module that loads a library. `dlopen` and `dlsym` report
/// through `dlerror`, never errno, so the door's EINTR rule and error type do not fit them: they throw
/// `SharedLibraryError`, which each module tells in its own words. A library is never unloaded: its functions are
/// kept in process-wide tables (`EspeakFunctions`, `PCAudioFunctions`, `PulseFunctions`, `BrlAPIFunctions`).
public struct SharedLibrary: @unchecked Sendable {
    /// The name it was loaded by, for messages.
    public let soname: String
    private let handle: UnsafeMutableRawPointer

    /// Loads `soname` and the libraries it needs, none of them visible to other libraries.
    ///
    /// Functions are bound at their first call (RTLD_LAZY), as the espeak-ng CLI's own are: ~0.7 ms less
    /// on the engine's start-up path (docs/performance.md). What otc-prompt calls is checked here all the
    /// same (`function(_:)` resolves each with dlsym when the library loads); most of the ~30 libraries
    /// are linked with BIND_NOW and are bound now whatever the flag; RELRO is the libraries' own either way.
    /// - Throws: the loader's reason.
    /// The corresponding C function is `dlopen`.
    public static func open(_ soname: String) throws(SharedLibraryError) -> SharedLibrary {
        _ = dlerror()
        guard let handle = dlopen(soname, RTLD_LAZY | RTLD_LOCAL) else {
            throw SharedLibraryError(soname: soname, reason: loaderError() ?? "cannot be loaded")
        }
        return SharedLibrary(soname: soname, handle: handle)
    }

    /// The function `name`, as the C function pointer type `Function` the module's header declares.
    /// - Throws: when the library has no such symbol (another version of it).
    /// The corresponding C function is `dlsym`.
    public func function<Function>(
        _ name: String, as type: Function.Type = Function.self
    ) throws(SharedLibraryError) -> Function {
        precondition(MemoryLayout<Function>.size == MemoryLayout<UnsafeRawPointer>.size, "not a C function pointer")
        _ = dlerror()
        guard let address = dlsym(handle, name) else {
            throw SharedLibraryError(
                soname: soname, reason: "it has no function \(name) (\(Self.loaderError() ?? "not found"))")
        }
        return unsafeBitCast(address, to: Function.self)
    }

    /// The loader's last error, when it has one. The corresponding C function is `dlerror`.
    private static func loaderError() -> String? {
        dlerror().map { String(cString: $0) }
    }
}

/// Why a library could not be loaded, or lacks a function: the loader's words (`dlerror`).
public struct SharedLibraryError: Error, Equatable, Sendable {
    /// The library, as it was asked for.
    public let soname: String
    /// Why, in words: "… cannot open shared object file: No such file or directory", "it has no function …".
    public let reason: String

    public init(soname: String, reason: String) {
        self.soname = soname
        self.reason = reason
    }
}
