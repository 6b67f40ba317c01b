internal import CX11

/// Drawing text and outlines with the default GC and font.
extension X11Connection {
  /// The default font's metrics, as the default GC draws: ascent, descent, widest character.
  public func defaultFontMetrics() -> (ascent: Int, descent: Int, width: Int) {
    let gc = XDefaultGC(display, screen)
    guard let font = XQueryFont(display, XGContextFromGC(gc)) else { return (11, 2, 6) }
    defer { XFreeFontInfo(nil, font, 1) }
    let info = font.pointee
    return (Int(info.ascent), Int(info.descent), max(Int(info.max_bounds.width), 1))
  }

  /// Clears a window to its background.
  public func clearWindow(_ window: XWindow) {
    XClearWindow(display, Window(window.rawValue))
  }

  /// Draws Latin-1 `bytes` with the default GC and font, baseline at `y`.
  public func drawString(_ window: XWindow, x: Int, y: Int, latin1 bytes: [UInt8]) {
    let gc = XDefaultGC(display, screen)
    bytes.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) {
        _ = XDrawString(
          display, Window(window.rawValue), gc, Int32(x), Int32(y), $0.baseAddress, Int32($0.count))
      }
    }
  }

  /// Outlines a rectangle with the default GC, `thickness` pixels wide (inwards).
  public func drawRectangle(
    _ window: XWindow, x: Int, y: Int, width: Int, height: Int, thickness: Int = 1
  ) {
    let gc = XDefaultGC(display, screen)
    for inset in 0..<max(thickness, 1) where width > 2 * inset && height > 2 * inset {
      XDrawRectangle(
        display, Window(window.rawValue), gc, Int32(x + inset), Int32(y + inset),
        UInt32(width - 1 - 2 * inset),
        UInt32(height - 1 - 2 * inset))
    }
  }
}
