internal import CMalloc

/// How the daemon gives freed memory back to the system, where glibc's allocator would keep
/// it (docs/PERFORMANCE.md, "Memory").
///
/// - glibc raises its mmap threshold each time a large block is freed (up to 32 MiB), so after
///   one 4 MiB chunk buffer every later one came from the heap and stayed there when freed: a
///   100 MiB item read once by `xclip -o` left the daemon 7 MiB larger. A fixed threshold
///   keeps blocks of 128 KiB and more in their own mappings, unmapped when freed.
/// - Small blocks (a connection's channel, its task, its buffers) are freed into the heaps of
///   the threads that served them, between blocks still in use, and glibc gives back only the
///   top of a heap: 500 connections left 7 MiB behind when they closed. `malloc_trim(0)`
///   returns every free page of every heap, and runs when the last connection closes.
///
/// ```swift
/// HeapRelease.configure()   // once, at the start of `ferry daemon`
/// HeapRelease.trim()        // when the daemon has just become idle
/// ```
public enum HeapRelease {
  /// The size from which a block gets a mapping of its own: glibc's default, made fixed.
  public static let mmapThreshold: Int32 = 128 << 10

  /// Fixes the mmap threshold (see above). Call once, before the daemon's threads start.
  public static func configure() {
    _ = mallopt(M_MMAP_THRESHOLD, mmapThreshold)
  }

  /// Gives the free pages of every heap back to the system.
  public static func trim() {
    _ = malloc_trim(0)
  }
}
