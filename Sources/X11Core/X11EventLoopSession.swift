/// What an ``X11EventLoop`` serves on its thread: the state built on the connection (the
/// selection protocols' owner and requestor sides, windows, timers), made on the X thread
/// when the connection opens and used only there.
///
/// The loop hands it every event it reads, runs its timers, and sleeps in poll(2) until the
/// next one is due; jobs submitted to the loop get it.
public protocol X11EventLoopSession: AnyObject, SendableMetatype {
  /// The connection the loop polls.
  var connection: X11Connection { get }

  /// Handles one event read from ``connection``.
  func handle(_ event: X11Event)

  /// Runs the timers that are due.
  func runDueTimers()

  /// The poll(2) timeout until the next timer, in milliseconds, or -1 for none.
  func millisecondsToNextTimer() -> Int32

  /// Fails every waiting caller and ends every stream: the loop is ending.
  func failEverything(with error: X11Error)

  /// Releases what the session made on the server (its windows) before the connection
  /// closes. Not called when the connection was lost.
  func close()
}
