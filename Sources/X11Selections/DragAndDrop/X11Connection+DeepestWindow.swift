import X11Core

/// Finding the drop target under the pointer, from the typed calls of ``X11Connection``.
extension X11Connection {
  /// The first window at root `(x, y)` that has `property`, descending from the top-level
  /// window under the point through its children (a reparenting manager's frame holds the
  /// client, which holds the property); `nil` for none.
  ///
  /// XDND "Finding the target window": https://freedesktop.org/wiki/Specifications/XDND/#index3h2
  func deepestWindow(at x: Int, _ y: Int, having property: XAtom, skipping skipped: Set<XWindow>)
    -> XWindow?
  {
    guard var current = translate(x: x, y: y, from: root, to: root)?.child, current != .none else {
      return nil
    }
    if skipped.contains(current) { return nil }
    for _ in 0..<16 {
      if self.property(of: current, property, delete: false) != nil { return current }
      guard let next = translate(x: x, y: y, from: root, to: current)?.child, next != .none else {
        return nil
      }
      current = next
    }
    return nil
  }
}
