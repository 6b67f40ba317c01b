/// A value carried into a `@Sendable` closure although its type is not `Sendable`.
///
/// Apple's representation closures take `Item` values without requiring `Item: Sendable`.
/// A value captured this way is only ever handed to the closures its own type declared, the
/// same way a direct call would hand it to them.
struct UncheckedSendable<Value>: @unchecked Sendable {
  let value: Value

  init(_ value: Value) {
    self.value = value
  }
}
