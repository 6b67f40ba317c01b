/// A rectangle on the screen, in root coordinates.
///
/// ```swift
/// let frame = try await dragWindow.entryFrames()[0]
/// print(frame.center)   // where to press to drag the first entry
/// ```
public struct ScreenRectangle: Sendable, Equatable {
  /// The left edge.
  public var x: Int
  /// The top edge.
  public var y: Int
  /// The width, in pixels.
  public var width: Int
  /// The height, in pixels.
  public var height: Int

  /// A rectangle.
  public init(x: Int, y: Int, width: Int, height: Int) {
    (self.x, self.y, self.width, self.height) = (x, y, width, height)
  }

  /// The point in the middle.
  public var center: (x: Int, y: Int) { (x + width / 2, y + height / 2) }
}
