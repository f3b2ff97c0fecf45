// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import Synchronization

/// The last resort: a signal that ends the process at once (a trap, a fault, a limit) puts the terminal back as
/// `Terminal.restore()` would before the process dies, so no crash leaves the user's terminal without echo, in
/// line-less raw mode, or with bracketed paste on.
///
/// What to put back is prepared while the prompt runs (`arm`): the saved attributes and the bytes that undo the
/// terminal modes, in memory allocated once. The handler only copies them out with `write` and `tcsetattr`, puts
/// the default action back and raises the signal again, so the process still ends as that signal (its status, a
/// core where one is allowed). Nothing in it allocates, locks or calls into the Swift runtime: it runs on its own
/// stack (`sigaltstack`), so a stack overflow reaches it too.
public enum CrashRestore {
    /// The signals whose default action ends the process without our code running again: a trap or failed
    /// precondition (SIGILL, SIGTRAP), abort (SIGABRT), a bad access (SIGSEGV, SIGBUS), the CPU limit (SIGXCPU).
    public static let fatalSignals: [Int32] = [SIGABRT, SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGXCPU]

    /// The longest undo sequence `arm` keeps: kitty's pop, bracketed paste off, cursor shown, attributes reset.
    static let sequenceCapacity = 64
    /// The handler's stack: more than it needs (a few hundred bytes), at least the kernel's minimum.
    static let stackSize = 64 * 1024

    /// Installs the handler for every fatal signal, on a stack of its own; once per process, on the main thread.
    /// The corresponding C functions are `sigaltstack` and `sigaction`.
    public static func install() {
        guard
            crashInstalled.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged
        else { return }
        _ = (crashSequence, crashAttributes, crashNumbers)
        var stack = stack_t()
        stack.ss_sp = crashStack
        stack.ss_size = stackSize
        stack.ss_flags = 0
        _ = sigaltstack(&stack, nil)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = restoreTerminalAndReraise
        // Once only (a second fault inside it takes the default action), and the re-raise is not held back.
        action.sa_flags = SA_ONSTACK | Int32(bitPattern: UInt32(SA_RESETHAND)) | SA_NODEFER
        sigfillset(&action.sa_mask)
        for signal in fatalSignals { _ = sigaction(signal, &action, nil) }
    }

    /// Prepares what the handler puts back: `attributes` on `input` (nil: none saved) and `sequence` written to
    /// `output`. Called each time a terminal mode changes.
    static func arm(input: Int32, output: Int32, attributes: termios?, sequence: String) {
        crashArmed.store(false, ordering: .sequentiallyConsistent)
        let bytes = Array(sequence.utf8.prefix(sequenceCapacity))
        for (index, byte) in bytes.enumerated() { crashSequence[index] = byte }
        if let attributes { crashAttributes.pointee = attributes }
        crashNumbers[0] = input
        crashNumbers[1] = output
        crashNumbers[2] = Int32(bytes.count)
        crashNumbers[3] = attributes == nil ? 0 : 1
        crashArmed.store(true, ordering: .sequentiallyConsistent)
    }

    /// Nothing to put back any more, when `input` is the terminal armed for.
    static func disarm(input: Int32) {
        if crashNumbers[0] == input { crashArmed.store(false, ordering: .sequentiallyConsistent) }
    }
}

/// What the handler needs, allocated once and never freed, as plain pointers (no reference counting in the
/// handler): a signal handler receives no user-data pointer, so these are the module's globals. Each is touched by
/// `install` first, so none is first initialised inside the handler.
private let crashInstalled = Atomic<Bool>(false)
private let crashArmed = Atomic<Bool>(false)
nonisolated(unsafe) private let crashStack = UnsafeMutableRawPointer.allocate(
    byteCount: CrashRestore.stackSize, alignment: 16)
nonisolated(unsafe) private let crashAttributes = UnsafeMutablePointer<termios>.allocate(capacity: 1)
nonisolated(unsafe) private let crashSequence = UnsafeMutablePointer<UInt8>.allocate(
    capacity: CrashRestore.sequenceCapacity)
/// The input descriptor, the output descriptor, the sequence's length, and 1 when attributes were saved.
nonisolated(unsafe) private let crashNumbers: UnsafeMutablePointer<Int32> = {
    let numbers = UnsafeMutablePointer<Int32>.allocate(capacity: 4)
    numbers.initialize(from: [-1, -1, 0, 0], count: 4)
    return numbers
}()

/// Writes the undo bytes, puts the attributes back, and raises `signal` again with its default action: only
/// `write`, `tcsetattr`, `sigaction` and `raise`, all async-signal-safe, and errno left as it was.
private func restoreTerminalAndReraise(_ signal: Int32) {
    let savedErrno = errno
    if crashArmed.load(ordering: .sequentiallyConsistent) {
        if crashNumbers[2] > 0 { _ = write(crashNumbers[1], crashSequence, Int(crashNumbers[2])) }
        if crashNumbers[3] == 1 { _ = tcsetattr(crashNumbers[0], TCSANOW, crashAttributes) }
    }
    var action = sigaction()
    action.__sigaction_handler.sa_handler = SIG_DFL
    sigemptyset(&action.sa_mask)
    _ = sigaction(signal, &action, nil)
    errno = savedErrno
    _ = raise(signal)
}
