import Foundation
import Glibc
import OTCPromptTestSupport

/// A file system that is slow or stuck, for one path: a small library, built here with the C compiler and
/// preloaded into the prompt, whose `open` of `OTC_TEST_SLOW_PATH` sleeps `OTC_TEST_SLOW_MS` milliseconds
/// first, or never returns when that is unset, the way a dead NFS server or FUSE daemon holds the call. A
/// signal runs its handler meanwhile (as in a killable wait) and the call goes on waiting.
enum SlowFileSystem {
    private static let source = """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <stdarg.h>
        #include <stdlib.h>
        #include <string.h>
        #include <time.h>
        #include <unistd.h>
        static void wait_if_slow(const char *path) {
            const char *slow = getenv("OTC_TEST_SLOW_PATH");
            if (!slow || !path || strcmp(path, slow) != 0) return;
            const char *ms = getenv("OTC_TEST_SLOW_MS");
            if (!ms) for (;;) pause();
            struct timespec left = { atoi(ms) / 1000, (atoi(ms) % 1000) * 1000000L };
            while (nanosleep(&left, &left) != 0) {}
        }
        #define OPEN(NAME) int NAME(const char *path, int flags, ...) { \\
            va_list list; va_start(list, flags); int mode = va_arg(list, int); va_end(list); \\
            wait_if_slow(path); \\
            return ((int (*)(const char *, int, ...))dlsym(RTLD_NEXT, #NAME))(path, flags, mode); }
        OPEN(open)
        OPEN(open64)
        int openat(int dir, const char *path, int flags, ...) {
            va_list list; va_start(list, flags); int mode = va_arg(list, int); va_end(list);
            wait_if_slow(path);
            return ((int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat"))(dir, path, flags, mode);
        }
        """

    /// The built library's path; built once per test process, in a directory of its own.
    static let library: Result<String, BuildFailed> = build()

    struct BuildFailed: Error, CustomStringConvertible {
        var description: String
    }

    /// The environment that makes `path` slow by `delay` (nil: stuck for ever) for the prompt.
    static func environment(_ base: [String: String], path: String, delay: Duration?) throws -> [String: String] {
        var environment = base
        environment["LD_PRELOAD"] = try library.get()
        environment["OTC_TEST_SLOW_PATH"] = path
        if let delay {
            environment["OTC_TEST_SLOW_MS"] =
                "\(delay.components.seconds * 1000 + delay.components.attoseconds / 1_000_000_000_000_000)"
        }
        return environment
    }

    private static func build() -> Result<String, BuildFailed> {
        let directory = NSTemporaryDirectory() + "/otc-slow-fs-\(getpid())-\(UUID().uuidString.prefix(8))"
        mkdir(directory, 0o755)
        atexit { try? FileManager.default.removeItem(atPath: SlowFileSystem.directory ?? "/nonexistent") }
        Self.directory = directory
        let sourcePath = directory + "/slow.c"
        let library = directory + "/slow.so"
        do {
            try source.write(toFile: sourcePath, atomically: true, encoding: .utf8)
        } catch {
            return .failure(BuildFailed(description: "\(error)"))
        }
        guard let compiler = compiler() else {
            return .failure(BuildFailed(description: "no C compiler (cc, gcc or clang) on PATH"))
        }
        let compiled: (output: String, status: Int32)
        do {
            compiled = try runWithStatus(compiler, ["-shared", "-fPIC", "-o", library, sourcePath, "-ldl"])
        } catch {
            return .failure(BuildFailed(description: "\(compiler): \(error)"))
        }
        guard exitStatus(compiled.status) == 0 else {
            return .failure(BuildFailed(description: "\(compiler) exited \(exitStatus(compiled.status)): \(compiled.output)"))
        }
        return .success(library)
    }

    nonisolated(unsafe) private static var directory: String?

    /// cc, gcc or clang (the Swift toolchain's) on the test's PATH.
    private static func compiler() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in ["cc", "gcc", "clang"] {
            for directory in path.split(separator: ":") where access("\(directory)/\(name)", X_OK) == 0 {
                return "\(directory)/\(name)"
            }
        }
        return nil
    }
}
