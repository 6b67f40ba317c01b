/// Why an image could not be converted: one line naming what was wrong.
public struct ImageConversionError: Error, CustomStringConvertible, Sendable, Equatable {
  /// What kind of failure.
  public enum Reason: Sendable, Equatable {
    /// Not an image of its type, or a damaged one.
    case unreadable
    /// More pixels than the limit: refused before its pixels were allocated.
    case tooLarge
    /// Memory for the pixels or the output could not be had.
    case noMemory
    /// The encoder failed (an image too large for the format, say).
    case unwritable
  }

  /// What kind of failure.
  public var reason: Reason
  /// The codec's words.
  public var message: String

  /// Creates an error.
  public init(_ reason: Reason, _ message: String) {
    self.reason = reason
    self.message = message
  }

  public var description: String { message }
}
