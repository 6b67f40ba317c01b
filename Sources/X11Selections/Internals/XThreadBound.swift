/// A value that is only ever used on the X thread, carried through a task that runs elsewhere.
///
/// The X thread hands a closure to a task that produces data, and the task hands it back in a
/// job that runs on the X thread: the closure itself never runs anywhere else.
struct XThreadBound<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
