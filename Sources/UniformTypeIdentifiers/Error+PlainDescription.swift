import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension Error {
  /// The error in a few plain words for a one-line message: the system's reason for a file
  /// error (`No such file or directory`), else the error's own description.
  ///
  /// `localizedDescription` without full Foundation, which the command-line tools do not link
  /// (docs/log/2026-12-02-performance.md, "Command-line tools"); FoundationEssentials' file
  /// errors carry the POSIX error under them.
  package var plainDescription: String {
    if let posix = self as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
    if let cocoa = self as? CocoaError {
      if let underlying = cocoa.underlying { return underlying.plainDescription }
      if let detail = cocoa.userInfo["NSDebugDescription"] as? String { return detail }
    }
    return "\(self)"
  }
}
