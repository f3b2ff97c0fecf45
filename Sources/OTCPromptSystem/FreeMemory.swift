/// Memory the allocator holds free, handed back to the system.
public enum FreeMemory {
    /// Returns the free pages of every allocator arena to the kernel: after a voice has let its device go (the
    /// password agent's wait), the buffers its threads and the audio library freed no longer count as resident.
    /// The corresponding C function is `malloc_trim`.
    public static func trim() {
        _ = glibcMallocTrim(0)
    }
}

/// glibc's `malloc_trim`, which the Glibc module does not import (`<malloc.h>` is not in its module map).
@_silgen_name("malloc_trim")
private func glibcMallocTrim(_ pad: Int) -> Int32
