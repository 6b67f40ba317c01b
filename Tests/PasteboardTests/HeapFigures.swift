import CMalloc

/// What glibc's allocator holds, for the tests that check a path keeps nothing. Under
/// AddressSanitizer, whose allocator glibc's figures do not see, LeakSanitizer checks the
/// same at the test process's end.
enum HeapFigures {
  /// Bytes the C allocator holds for the program: in its arenas and mapped on their own.
  static func allocatedBytes() -> Int {
    let info = mallinfo2()
    return Int(info.uordblks) + Int(info.hblkhd)
  }
}
