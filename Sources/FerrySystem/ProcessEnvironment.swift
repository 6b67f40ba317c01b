#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// What a library reads of the process it runs in without Foundation's process info: one
/// environment variable, and the broken-pipe signal turned into failed writes.
public enum ProcessEnvironment {
  /// The value of the environment variable `name`, or `nil` when it is not set.
  public static func value(of name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  /// Makes a write to a pipe or socket whose reader has gone fail with `EPIPE` instead of
  /// raising `SIGPIPE`, whose default action ends the process: for a process that writes to
  /// peers it does not control (a Wayland reader, a closed client).
  public static func ignoreBrokenPipes() {
    signal(SIGPIPE, SIG_IGN)
  }
}
