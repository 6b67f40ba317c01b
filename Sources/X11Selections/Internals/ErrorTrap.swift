internal import CX11
import Synchronization

/// Captures X protocol errors instead of letting Xlib's default handler exit the process.
///
/// One handler is installed for the process; it files each error under its display. The
/// thread that owns a display collects them after a round trip (``X11Connection/sync()``).
enum ErrorTrap {
  struct Captured: Sendable {
    var code: XErrorCode
    var request: UInt8
    var resource: UInt
  }

  private static let errors = Mutex<[UInt: [Captured]]>([:])
  private static let installed = Mutex(false)
  /// Displays whose connection was lost, by address.
  private static let lost = Mutex<Set<UInt>>([])

  /// Installs the handlers once.
  static func install() {
    let first = installed.withLock { done -> Bool in
      defer { done = true }
      return !done
    }
    guard first else { return }
    _ = XInitThreads()
    _ = XSetErrorHandler { display, event in
      guard let display, let event else { return 0 }
      let key = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(display)))
      let captured = Captured(
        code: XErrorCode(rawValue: event.pointee.error_code),
        request: event.pointee.request_code, resource: UInt(event.pointee.resourceid))
      ErrorTrap.errors.withLock { $0[key, default: []].append(captured) }
      return 0
    }
  }

  /// Removes and returns the errors filed for `display`.
  static func take(for display: OpaquePointer) -> [Captured] {
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
