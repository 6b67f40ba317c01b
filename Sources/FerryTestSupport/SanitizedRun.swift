#if canImport(Glibc)
  import Glibc
#endif

/// Whether this test process was built with a sanitizer, as `Scripts/test --sanitize` tells
/// it (`FERRY_SANITIZER`, `address` or `thread`).
public enum SanitizedRun {
  /// The sanitizer the run was built with; `nil` for an ordinary run.
  public static var sanitizer: String? {
    getenv("FERRY_SANITIZER").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
  }

  /// Whether resident-memory figures are Ferry's own, as the tests that bound them assume.
  /// Under a sanitizer they are not: AddressSanitizer keeps freed blocks in a quarantine
  /// (256 MiB by default), pads every block and maps an eighth of what is touched again as
  /// shadow; ThreadSanitizer's shadow is several times what is touched. Those tests still
  /// run there, and check everything but the figures.
  public static var measuresMemory: Bool { sanitizer == nil }
}
