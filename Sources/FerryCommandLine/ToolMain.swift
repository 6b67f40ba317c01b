import ArgumentParser
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension ParsableArguments {
  /// Runs `body`, the work of the tool `program`, the way every Ferry tool ends: a
  /// ``CommandFailure`` is its one line and its status; a usage mistake the parser found is
  /// its message and status 2 (not `EX_USAGE`'s 64); help and the rest as the parser says.
  public static func runAsTool(_ program: String, _ body: () throws -> Void) {
    do {
      try body()
    } catch let failure as CommandFailure {
      reportError(program, failure.message)
      Glibc.exit(failure.status.rawValue)
    } catch {
      if exitCode(for: error) == .validationFailure {
        writeToStandardError(fullMessage(for: error) + "\n")
        Glibc.exit(ExitStatus.usage.rawValue)
      }
      exit(withError: error)
    }
  }
}
