import FerrySystem
import FoundationEssentials
import SelectionBackendCore
import UniformTypeIdentifiers

extension DetachedSelectionServer {
  /// What the server tells the command that started it: one line on its descriptor 3, a
  /// word for the outcome, then the message for people.
  ///
  /// The word carries what the command's exit status depends on, so the message is never
  /// read for it.
  enum Report: Equatable, Sendable {
    /// It owns the selection.
    case ready
    /// The display could not be opened, or went away: the command exits as without a display.
    case noDisplay(String)
    /// Anything else.
    case failed(String)

    /// The report for a failure: the display's own failures are ``noDisplay(_:)``.
    init(failure: any Error) {
      switch failure as? BackendError {
      case .cannotConnect?, .connectionLost?: self = .noDisplay("\(failure)")
      default: self = .failed("\(failure)")
      }
    }

    /// The line written on the descriptor, without its line break.
    var line: String {
      switch self {
      case .ready: "ready"
      case .noDisplay(let message): "no-display " + message
      case .failed(let message): "failed " + message
      }
    }

    /// Reads a line written as ``line``; a line in no known form is a failure.
    init(line: String) {
      let word = line.prefix { $0 != " " }
      let message = String(line.dropFirst(word.count + 1))
      switch word {
      case "ready": self = .ready
      case "no-display": self = .noDisplay(message)
      default: self = .failed(word == "failed" ? message : line)
      }
    }

    /// The report read from `descriptor`, waiting at most `limit` for its line; `nil` when
    /// none came.
    static func read(from descriptor: FileDescriptor, within limit: Duration) -> Report? {
      var collected = [UInt8]()
      var buffer = [UInt8](repeating: 0, count: 512)
      let deadline = ContinuousClock.now + limit
      while !collected.contains(0x0A) {
        guard let found = try? descriptor.wait(for: .readable, until: deadline), !found.isEmpty,
          let count = try? buffer.withUnsafeMutableBytes({ try descriptor.read(into: $0) }),
          count > 0
        else { break }
        collected += buffer[..<count]
      }
      guard !collected.isEmpty else { return nil }
      return Report(line: String(decoding: collected, as: UTF8.self).trimmingWhitespace())
    }
  }
}
