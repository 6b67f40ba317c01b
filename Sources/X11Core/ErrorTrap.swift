internal import CX11
import FerrySystem

#if canImport(Glibc)
  import Glibc
#endif

/// Captures X protocol errors instead of letting Xlib's default handler exit the process, and
/// keeps a lost connection from ending the process (its display's exit handler ends only
/// the thread that owns it).
///
/// One handler is installed for the process; it files each error under its display. The
/// thread that owns a display collects them after a round trip (``X11Connection/sync()``).
enum ErrorTrap {
  private static let errors = TrackedMutex<[UInt: [XErrorReport]]>([:])
  private static let installed = TrackedMutex(false)
  /// Displays whose connection was lost, by address.
  private static let lost = TrackedMutex<Set<UInt>>([])

  /// Installs the handlers once. Every caller returns only once they are installed: a thread
  /// that went on to open a display while the first one was still installing would use Xlib
  /// before `XInitThreads`, and an error on it would reach Xlib's default handler, which exits.
  static func install() {
    installed.withLock { done in
      guard !done else { return }
      done = true
      installHandlers()
    }
  }

  private static func installHandlers() {
    _ = XInitThreads()
    // Xlib's own I/O error handler exits the process; the per-display exit handler
    // (``X11Connection/onLostInsideXlib(_:)``) is only reached when this one returns.
    _ = XSetIOErrorHandler { display in
      if let display { ErrorTrap.markLost(display) }
      // Inside XOpenDisplay (its own round trips: BIG-REQUESTS, XKB) the display has no exit
      // handler of Ferry's yet, and Xlib's default one exits the process.
      if let opening = ErrorTrap.openingHandler() { opening() }
      return 0
    }
    _ = XSetErrorHandler { display, event in
      guard let display, let event else { return 0 }
      let key = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(display)))
      let captured = XErrorReport(
        code: XErrorCode(rawValue: event.pointee.error_code),
        request: event.pointee.request_code, resource: UInt(event.pointee.resourceid),
        serial: UInt(event.pointee.serial))
      ErrorTrap.errors.withLock { $0[key, default: []].append(captured) }
      return 0
    }
  }

  /// What ends the calling thread's `XOpenDisplay` if the server goes away inside it, by
  /// thread.
  private static let opening = TrackedMutex<[UInt: OpeningHandler]>([:])

  /// Runs `open` (an `XOpenDisplay`) with `lost` as what runs, on this thread, if Xlib finds
  /// the connection dead inside it: before the display exists, no exit handler of its own can
  /// be set, and Xlib's default one exits the process (issue 36).
  static func whileOpening<T>(_ lost: (() -> Never)?, _ open: () -> T) -> T {
    guard let lost else { return open() }
    let thread = UInt(pthread_self())
    opening.withLock { $0[thread] = OpeningHandler(lost) }
    defer { _ = opening.withLock { $0.removeValue(forKey: thread) } }
    return open()
  }

  /// The calling thread's handler of ``whileOpening(_:_:)``, if it is opening a display.
  fileprivate static func openingHandler() -> (() -> Never)? {
    let thread = UInt(pthread_self())
    return opening.withLock { $0.removeValue(forKey: thread) }?.handler
  }

  /// Forgets everything filed under `display`'s address: called when a display is opened,
  /// because the allocator may hand a new display the address of a closed one, which would
  /// otherwise inherit its unread errors (failing the new display's first checked request)
  /// and its lost mark (skipping its `XCloseDisplay`).
  static func forget(_ display: OpaquePointer) {
    let key = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(display)))
    _ = errors.withLock { $0.removeValue(forKey: key) }
    _ = lost.withLock { $0.remove(key) }
  }

  /// Removes and returns the errors filed for `display`.
  static func take(for display: OpaquePointer) -> [XErrorReport] {
    let key = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(display)))
    return errors.withLock { $0.removeValue(forKey: key) ?? [] }
  }

  /// Marks `display` lost.
  static func markLost(_ display: OpaquePointer) {
    let key = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(display)))
    _ = lost.withLock { $0.insert(key) }
  }

  /// Whether `display` was lost.
  static func isLost(_ display: OpaquePointer) -> Bool {
    let key = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(display)))
    return lost.withLock { $0.contains(key) }
  }
}

/// A handler of ``ErrorTrap/whileOpening(_:_:)``.
private final class OpeningHandler: Sendable {
  let handler: @Sendable () -> Never
  init(_ handler: @escaping () -> Never) {
    nonisolated(unsafe) let handler = handler
    self.handler = { handler() }
  }
}
