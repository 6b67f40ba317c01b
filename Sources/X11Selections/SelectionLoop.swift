import X11Core

/// The X thread of an ``X11Display``: an ``X11EventLoop`` serving an ``X11Session``.
typealias SelectionLoop = X11EventLoop<X11Session>

extension SelectionLoop {
  /// Opens `display` (or `$DISPLAY`) on a new thread, with a session whose deadlines are
  /// measured on `clock`, and returns once it is open.
  ///
  /// - Throws: ``X11Error`` when the display cannot be opened.
  convenience init(display: String?, clock: DeadlineClock = .continuous) throws {
    try self.init(display: display) { connection, loop in
      X11Session(connection: connection, loop: loop, clock: clock)
    }
  }

  /// Opens `display` on the calling thread — the one this loop was made on — gives the
  /// session to `start`, and serves the connection on this thread until `isDone()` holds
  /// after a step; then closes it. No thread is started and no result crosses threads.
  ///
  /// - Throws: ``X11Error`` when the display cannot be opened.
  func runOnCallingThread(
    display: String?, clock: DeadlineClock = .continuous, start: (X11Session) -> Void,
    until isDone: () -> Bool
  ) throws {
    try runOnCallingThread(
      display: display,
      makeSession: { connection, loop in
        X11Session(connection: connection, loop: loop, clock: clock)
      },
      start: start, until: isDone)
  }
}
