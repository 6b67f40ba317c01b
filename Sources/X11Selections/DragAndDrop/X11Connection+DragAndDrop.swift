internal import CX11
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The Xlib calls of drag and drop: coordinates, finding windows under the pointer, and
/// grabs. Run on the X thread only, as every call of ``X11Connection``. (The windows people
/// see, and their drawing, are `DragWindows`'.)
extension X11Connection {
  // MARK: Coordinates

  /// `(x, y)` of `from` in `to`'s coordinates, and the child of `to` containing the point
  /// (`.none` for none); `nil` when the windows are on different screens or gone.
  package func translate(x: Int, y: Int, from: XWindow, to: XWindow)
    -> (x: Int, y: Int, child: XWindow)?
  {
    var outX: Int32 = 0
    var outY: Int32 = 0
    var child: Window = 0
    let same = XTranslateCoordinates(
      display, Window(from.rawValue), Window(to.rawValue), Int32(x), Int32(y), &outX, &outY, &child)
    guard same != 0 else { return nil }
    return (Int(outX), Int(outY), XWindow(rawValue: UInt(child)))
  }

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

  // MARK: Grabs

  /// Grabs the pointer for a drag: motion and release go to `window` wherever the pointer is.
  ///
  /// - Returns: Whether the grab succeeded (`AlreadyGrabbed`, `GrabInvalidTime`,
  ///   `GrabNotViewable` and `GrabFrozen` do not).
  func grabPointer(_ window: XWindow, cursor: UInt, time: XTimestamp) -> Bool {
    let mask = UInt32(ButtonMotionMask | PointerMotionMask | ButtonReleaseMask)
    return XGrabPointer(
      display, Window(window.rawValue), 0, mask, GrabModeAsync, GrabModeAsync, 0, Cursor(cursor),
      Time(time.rawValue)) == GrabSuccess
  }

  /// Grabs the keyboard so Escape reaches the drag.
  func grabKeyboard(_ window: XWindow, time: XTimestamp) -> Bool {
    XGrabKeyboard(
      display, Window(window.rawValue), 0, GrabModeAsync, GrabModeAsync, Time(time.rawValue))
      == GrabSuccess
  }

  func ungrabPointerAndKeyboard(time: XTimestamp) {
    XUngrabPointer(display, Time(time.rawValue))
    XUngrabKeyboard(display, Time(time.rawValue))
  }

  /// The hand cursor shown while dragging (`XC_hand2` of the cursor font).
  func dragCursor() -> UInt {
    UInt(XCreateFontCursor(display, 60))
  }

  func freeCursor(_ cursor: UInt) {
    XFreeCursor(display, Cursor(cursor))
  }

  /// The keycode of a keysym (`0xff1b` is `XK_Escape`), or 0.
  func keycode(forKeysym keysym: UInt) -> UInt32 {
    UInt32(XKeysymToKeycode(display, KeySym(keysym)))
  }
}
