import X11Selections

/// The X-thread side of a window people see: it shows a ``SimpleWindow`` and can close it.
protocol WindowController: AnyObject, SendableMetatype {
  /// The window it shows.
  var view: SimpleWindow { get }
  /// Destroys the window; its events end.
  func close()
}

/// A window controller as a public window type holds it: any task may ask it something or
/// close it, and the work runs on the X thread.
struct ControllerHandle<Controller: WindowController>: Sendable {
  /// The window's id.
  let window: XWindow
  private let thread: XThread
  private let controller: XThreadBound<Controller>

  /// Makes a controller on the X thread with `make`, and returns once the server has made
  /// its window.
  ///
  /// - Returns: The handle, and the events `make` was given the continuation of; they end
  ///   when the display goes away too.
  /// - Throws: ``X11Error/connectionLost``.
  static func open<Event>(
    on display: X11Display,
    _ make: @escaping @Sendable (X11Session, AsyncStream<Event>.Continuation) -> Controller
  ) async throws -> (Self, AsyncStream<Event>) {
    let (events, continuation) = AsyncStream<Event>.makeStream()
    display.onConnectionLost { continuation.finish() }
    let thread = display.xThread
    let (window, controller) = try await thread.perform { session in
      let controller = make(session, continuation)
      session.connection.roundTrip()
      return (controller.view.window, XThreadBound(controller))
    }
    return (Self(window: window, thread: thread, controller: controller), events)
  }

  /// Runs `body` with the controller on the X thread and returns its result.
  ///
  /// - Throws: ``X11Error/connectionLost``.
  func perform<T: Sendable>(_ body: @escaping @Sendable (Controller) -> T) async throws -> T {
    let controller = self.controller
    return try await thread.perform { _ in body(controller.value) }
  }

  /// Closes the window, soon.
  func close() {
    let controller = self.controller
    thread.submit { _ in controller.value.close() }
  }
}
