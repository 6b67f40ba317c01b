/// A value that is only ever used on the X thread, carried through a task that runs elsewhere.
///
/// The X thread hands a closure to a task that produces data, and the task hands it back in a
/// job that runs on the X thread: the closure itself never runs anywhere else. `DragWindows`
/// keeps its windows' controllers in these, and reaches them only in jobs.
public struct XThreadBound<Value>: @unchecked Sendable {
  /// The value; use it on the X thread only.
  public let value: Value
  /// Wraps a value of the X thread.
  public init(_ value: Value) { self.value = value }
}
