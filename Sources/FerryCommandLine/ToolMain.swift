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
  /// one line (the parser's message and where help is) and status 2, not `EX_USAGE`'s 64;
  /// help and `--version` are printed with status 0; any other error is one line and status
  /// 6, never the parser's status 1, which means "nothing there" here.
  public static func runAsTool(_ program: String, _ body: () throws -> Void) {
    do {
      try body()
    } catch let failure as CommandFailure {
      reportError(program, failure.message)
      Glibc.exit(failure.status.rawValue)
    } catch {
      switch exitCode(for: error) {
      case .success:
        exit(withError: error)
      case .validationFailure:
        reportError(program, oneLine(message(for: error)) + " (see '\(program) --help')")
        Glibc.exit(ExitStatus.usage.rawValue)
      default:
        reportError(program, oneLine(message(for: error)))
        Glibc.exit(ExitStatus.io.rawValue)
      }
    }
  }
}

/// `text` on one line: its lines joined with "; ".
private func oneLine(_ text: String) -> String {
  text.split(whereSeparator: \.isNewline)
    .map { $0.drop(while: \.isWhitespace) }
    .filter { !$0.isEmpty }
    .joined(separator: "; ")
}
