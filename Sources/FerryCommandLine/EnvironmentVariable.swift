#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The value of the environment variable `name`, or `nil` when it is not set.
///
/// Read with `getenv(3)`: `ProcessInfo`'s `environment` builds a dictionary of every
/// variable first, which a short command pays for at each start.
func environmentVariable(_ name: String) -> String? {
  getenv(name).map { String(cString: $0) }
}
