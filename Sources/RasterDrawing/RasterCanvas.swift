/// Pixels in memory, 32 bits each as `wl_shm`'s `XRGB8888` has them (0x00RRGGBB, little-endian
/// in the buffer): what a client-side window draws into before it hands the buffer to the
/// compositor. Draws what the X11 windows draw with the default GC — filled and outlined
/// rectangles, Latin-1 text in ``FixedFont`` — with the same geometry, so one layout serves
/// both.
///
/// ```swift
/// var canvas = RasterCanvas(width: 320, height: 60)
/// canvas.outline(x: 8, y: 8, width: 304, height: 22, thickness: 3)
/// canvas.drawText(Array("notes.txt".utf8), x: 14, baseline: 23)
/// ```
public struct RasterCanvas: Sendable, Hashable {
  /// White, the windows' background.
  public static let white: UInt32 = 0x00FF_FFFF
  /// Black, what they draw with.
  public static let black: UInt32 = 0x0000_0000

  /// The width in pixels.
  public let width: Int
  /// The height in pixels.
  public let height: Int
  /// Row after row, `width` pixels each.
  public private(set) var pixels: [UInt32]

  /// A canvas of `width` × `height` pixels (at least 1 × 1), all `background`.
  public init(width: Int, height: Int, background: UInt32 = RasterCanvas.white) {
    self.width = max(width, 1)
    self.height = max(height, 1)
    pixels = Array(repeating: background, count: self.width * self.height)
  }

  /// The pixel at `(x, y)`.
  public subscript(x: Int, y: Int) -> UInt32 { pixels[y * width + x] }

  /// Sets every pixel to `color`.
  public mutating func fill(_ color: UInt32) {
    for index in pixels.indices { pixels[index] = color }
  }

  /// Fills the rectangle at `(x, y)`, `width` × `height`, clipped to the canvas.
  public mutating func fillRectangle(x: Int, y: Int, width: Int, height: Int, color: UInt32) {
    let left = max(x, 0)
    let right = min(x + width, self.width)
    let top = max(y, 0)
    let bottom = min(y + height, self.height)
    guard left < right, top < bottom else { return }
    for row in top..<bottom {
      let start = row * self.width
      for column in left..<right { pixels[start + column] = color }
    }
  }

  /// Outlines the rectangle at `(x, y)`, `width` × `height`, `thickness` pixels wide inwards:
  /// the pixels `XDrawRectangle` draws for each inset, as `X11Connection.drawRectangle` does.
  public mutating func outline(
    x: Int, y: Int, width: Int, height: Int, thickness: Int = 1, color: UInt32 = RasterCanvas.black
  ) {
    for inset in 0..<max(thickness, 1) where width > 2 * inset && height > 2 * inset {
      let (left, top) = (x + inset, y + inset)
      let (right, bottom) = (x + width - 1 - inset, y + height - 1 - inset)
      fillRectangle(x: left, y: top, width: right - left + 1, height: 1, color: color)
      fillRectangle(x: left, y: bottom, width: right - left + 1, height: 1, color: color)
      fillRectangle(x: left, y: top, width: 1, height: bottom - top + 1, color: color)
      fillRectangle(x: right, y: top, width: 1, height: bottom - top + 1, color: color)
    }
  }

  /// Draws Latin-1 `bytes` in ``FixedFont`` starting at `x`, with the baseline at `baseline`,
  /// as `XDrawString` does: only the glyphs' set pixels, clipped to the canvas.
  public mutating func drawText(
    _ bytes: [UInt8], x: Int, baseline: Int, color: UInt32 = RasterCanvas.black
  ) {
    let top = baseline - FixedFont.ascent
    for (position, byte) in bytes.enumerated() {
      let left = x + position * FixedFont.cellWidth
      guard left < width else { return }
      for (line, bits) in FixedFont.glyph(byte).enumerated() where bits != 0 {
        let y = top + line
        guard y >= 0, y < height else { continue }
        for column in 0..<FixedFont.cellWidth where bits & (0x80 >> column) != 0 {
          let pixel = left + column
          if pixel >= 0, pixel < width { pixels[y * width + pixel] = color }
        }
      }
    }
  }
}
