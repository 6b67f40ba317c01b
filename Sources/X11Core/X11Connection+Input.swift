internal import CX11

/// Pointer input: coordinates, grabs, the drag cursor, and keycodes. Run on the X thread
/// only, as every call of ``X11Connection``.
extension X11Connection {
  // MARK: Coordinates

  /// `(x, y)` of `from` in `to`'s coordinates, and the child of `to` containing the point
  /// (`.none` for none); `nil` when the windows are on different screens or gone.
  public func translate(x: Int, y: Int, from: XWindow, to: XWindow)
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

  // MARK: Grabs

  /// Grabs the pointer for a drag: motion and release go to `window` wherever the pointer is.
  ///
  /// - Returns: Whether the grab succeeded (`AlreadyGrabbed`, `GrabInvalidTime`,
  ///   `GrabNotViewable` and `GrabFrozen` do not).
  public func grabPointer(_ window: XWindow, cursor: UInt, time: XTimestamp) -> Bool {
    let mask = UInt32(ButtonMotionMask | PointerMotionMask | ButtonReleaseMask)
    return XGrabPointer(
      display, Window(window.rawValue), 0, mask, GrabModeAsync, GrabModeAsync, 0, Cursor(cursor),
      Time(time.rawValue)) == GrabSuccess
  }

  /// Grabs the keyboard so Escape reaches the drag.
  public func grabKeyboard(_ window: XWindow, time: XTimestamp) -> Bool {
    XGrabKeyboard(
      display, Window(window.rawValue), 0, GrabModeAsync, GrabModeAsync, Time(time.rawValue))
      == GrabSuccess
  }

  /// Releases the pointer and keyboard grabs.
  public func ungrabPointerAndKeyboard(time: XTimestamp) {
    XUngrabPointer(display, Time(time.rawValue))
    XUngrabKeyboard(display, Time(time.rawValue))
  }

  /// The hand cursor shown while dragging (`XC_hand2` of the cursor font).
  public func dragCursor() -> UInt {
    UInt(XCreateFontCursor(display, 60))
  }

  /// Frees a cursor made by ``dragCursor()``.
  public func freeCursor(_ cursor: UInt) {
    XFreeCursor(display, Cursor(cursor))
  }

  /// The keycode of a keysym (`0xff1b` is `XK_Escape`), or 0.
  public func keycode(forKeysym keysym: UInt) -> UInt32 {
    UInt32(XKeysymToKeycode(display, KeySym(keysym)))
  }
}
