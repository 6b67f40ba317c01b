/// The X thread of a display, for the modules of this package that put windows of their own
/// on its connection (`DragWindows`): every Xlib call runs there, as the selection protocols'
/// do.
///
/// ```swift
/// let window = try await display.xThread.perform { session in
///   session.connection.root   // on the X thread
/// }
/// ```
package struct XThread: Sendable {
  let loop: SelectionLoop

  /// Runs `job` on the X thread, soon; nothing runs once the connection is lost.
  package func submit(_ job: @escaping @Sendable (X11Session) -> Void) {
    loop.submit(job)
  }

  /// Runs `body` on the X thread and returns its result.
  ///
  /// - Throws: What `body` throws, or ``X11Error/connectionLost``.
  package func perform<T: Sendable>(_ body: @escaping @Sendable (X11Session) throws -> T)
    async throws -> T
  {
    try await loop.perform(body)
  }
}

extension X11Display {
  /// The thread that owns this display's connection.
  package var xThread: XThread { XThread(loop: loop) }
}
