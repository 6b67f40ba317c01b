import X11Selections

/// What a drag window reports.
public enum DragEvent: Sendable {
  /// A drag of entry `entry` (an index into the window's entries) started.
  case started(entry: Int)
  /// The drag of `entry` ended.
  case ended(entry: Int, DragOutcome)
  /// A drag could not start: another client holds the pointer.
  case couldNotStart(entry: Int, reason: String)
  /// The window was closed.
  case closed
}
