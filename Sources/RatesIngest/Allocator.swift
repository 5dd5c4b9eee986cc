#if os(Linux)
/// glibc's `int mallopt(int param, int value)` and `int malloc_trim(size_t pad)`, which the Glibc module does not export.
@_silgen_name("mallopt")
private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
@_silgen_name("malloc_trim")
private func malloc_trim(_ pad: Int) -> Int32
#endif

/// How the process's memory allocator is told to give memory back (glibc on Linux; nothing elsewhere).
///
/// An ingest allocates far more for a moment than the dataset keeps: the payload, its parse,
/// SQLite's work on the batch (about 40 MB at peak for the whole history). With glibc's
/// defaults those blocks come from heap arenas (one per thread that allocates, its threshold
/// for direct mappings rising after each large block), and the long-lived dataset allocated in
/// between pins their pages: the process stays near its peak for good (95 MB after the measured
/// start, catch-up and 30 ingests, against 53 MB for the same data after a restart).
public enum Allocator {
    /// Settings for a long-running server: large blocks (128 KiB and up) are mapped directly and
    /// unmapped when freed, and at most two arenas hold the rest. Call once, at start.
    public static func configureForLongRunningServer() {
        #if os(Linux)
        let mmapThreshold: Int32 = -3, arenaMax: Int32 = -8   // M_MMAP_THRESHOLD, M_ARENA_MAX in <malloc.h>
        _ = mallopt(mmapThreshold, 128 * 1024)
        _ = mallopt(arenaMax, 2)
        #endif
    }

    /// Hands freed heap pages back to the system (after an ingest freed its work).
    public static func returnFreedMemory() {
        #if os(Linux)
        _ = malloc_trim(0)
        #endif
    }
}
