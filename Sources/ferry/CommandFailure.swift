import ArgumentParser
import Foundation

/// Ferry's exit codes, the same for every command.
enum FerryExitCode: Int32 {
  /// Nothing to paste, the type is not available, or no type has that name.
  case notFound = 1
  /// The command line is wrong.
  case usage = 2
  /// There is no display and no broker.
  case noDisplay = 3
  /// A peer did not answer in time.
  case timeout = 4
}

/// A failure reported as one line on standard error with a distinct exit code.
struct CommandFailure: Error, CustomStringConvertible {
  var message: String
  var exitCode: FerryExitCode

  var description: String { message }
}

extension ParsableCommand {
  /// Runs the command, turning a ``CommandFailure`` into its line and exit code.
  static func mainReportingFailures() {
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch let failure as CommandFailure {
      FileHandle.standardError.write(Data("\(commandName): \(failure.message)\n".utf8))
      Foundation.exit(failure.exitCode.rawValue)
    } catch {
      exit(withError: error)
    }
  }

  private static var commandName: String {
    configuration.commandName ?? String(describing: Self.self).lowercased()
  }
}
