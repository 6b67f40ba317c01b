/// Where a window goes and how big it is, in the X geometry syntax `WxH+X+Y`.
///
/// ```swift
/// WindowGeometry("300x200+0+0")    // 300×200 at the top-left corner
/// WindowGeometry("300x200-10-10")  // 10 px from the right and bottom edges
/// WindowGeometry("+400+0")         // default size, at (400, 0)
/// WindowGeometry("400x80")         // default position
/// ```
///
/// A negative offset counts from the right or bottom edge of the screen, as in
/// `XParseGeometry(3)`. Placement matters to people with tiling window managers (who make
/// the window float by size and position rules) and to scripted drags, which need to know
/// where the window is.
public struct WindowGeometry: Sendable, Equatable, CustomStringConvertible {
  /// The width, or `nil` for the window's own choice.
  public var width: Int?
  /// The height, or `nil` for the window's own choice.
  public var height: Int?
  /// The horizontal offset, or `nil` for the default position.
  public var x: Int?
  /// The vertical offset, or `nil` for the default position.
  public var y: Int?
  /// Whether `x` counts from the right edge.
  public var xFromRight = false
  /// Whether `y` counts from the bottom edge.
  public var yFromBottom = false

  /// A geometry with the given size and position.
  public init(width: Int? = nil, height: Int? = nil, x: Int? = nil, y: Int? = nil) {
    (self.width, self.height, self.x, self.y) = (width, height, x, y)
  }

  /// Parses `WxH`, `WxH+X+Y`, `WxH-X-Y`, `+X+Y` and the like; `nil` when malformed or a
  /// size is zero.
  public init?(_ text: String) {
    var rest = Substring(text.hasPrefix("=") ? String(text.dropFirst()) : text)
    func number() -> Int? {
      let digits = rest.prefix { $0.isASCII && $0.isNumber }
      guard !digits.isEmpty, digits.count < 7 else { return nil }
      rest = rest.dropFirst(digits.count)
      return Int(digits)
    }
    if let first = rest.first, first.isNumber {
      guard let width = number(), rest.first == "x" || rest.first == "X" else { return nil }
      rest = rest.dropFirst()
      guard let height = number(), width > 0, height > 0 else { return nil }
      (self.width, self.height) = (width, height)
    }
    if let sign = rest.first {
      guard sign == "+" || sign == "-" else { return nil }
      rest = rest.dropFirst()
      guard let x = number(), let ySign = rest.first, ySign == "+" || ySign == "-" else {
        return nil
      }
      rest = rest.dropFirst()
      guard let y = number() else { return nil }
      (self.x, self.y, xFromRight, yFromBottom) = (x, y, sign == "-", ySign == "-")
    }
    guard rest.isEmpty, width != nil || x != nil else { return nil }
  }

  /// The geometry as `WxH+X+Y`.
  public var description: String {
    var text = ""
    if let width, let height { text = "\(width)x\(height)" }
    if let x, let y { text += "\(xFromRight ? "-" : "+")\(x)\(yFromBottom ? "-" : "+")\(y)" }
    return text
  }

  /// Whether a position was given.
  var hasPosition: Bool { x != nil && y != nil }

  /// The frame on a screen of `screen` size, filling in `size` where none was given.
  func frame(defaultSize size: (width: Int, height: Int), screen: (width: Int, height: Int))
    -> (x: Int, y: Int, width: Int, height: Int)
  {
    let width = self.width ?? size.width
    let height = self.height ?? size.height
    // With no position, a window manager places the window; without one, it sits at (0, 0).
    var originX = x ?? 0
    var originY = y ?? 0
    // A negative offset puts the window's right (bottom) edge that far from the screen's,
    // counting the 1-pixel border on both sides as XParseGeometry's callers do.
    if xFromRight { originX = screen.width - width - 2 - originX }
    if yFromBottom { originY = screen.height - height - 2 - originY }
    return (originX, originY, width, height)
  }
}
