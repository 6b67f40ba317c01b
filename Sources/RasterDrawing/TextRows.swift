/// One row of a Ferry window (`ferry drag`, `ferry drop`): its text, and whether it is boxed
/// (a draggable entry) and highlighted (the entry being dragged: a box three pixels thick).
public struct TextRow: Sendable, Hashable {
  /// The text, cut to fit when drawn (``TextRowLayout/fitted(_:width:)``).
  public var text: String
  /// Whether the row is outlined.
  public var boxed: Bool
  /// Whether its outline is thick.
  public var highlighted: Bool

  /// A row showing `text`.
  public init(text: String, boxed: Bool = false, highlighted: Bool = false) {
    self.text = text
    self.boxed = boxed
    self.highlighted = highlighted
  }
}

/// Rows of text in a window: where each row sits, which row a point falls on, and what is
/// drawn where — one layout for the X11 window (the server's font) and the client-drawn one
/// (``FixedFont``, the same font), so both look alike to the pixel.
public struct TextRowLayout: Sendable, Hashable {
  /// The font's pixels above the baseline.
  public var ascent: Int
  /// Below it.
  public var descent: Int
  /// The widest character's advance.
  public var characterWidth: Int
  /// The space around the rows.
  public static let margin = 8
  /// The layout of ``FixedFont``.
  public static let fixedFont = TextRowLayout(
    ascent: FixedFont.ascent, descent: FixedFont.cellHeight - FixedFont.ascent,
    characterWidth: FixedFont.cellWidth)

  /// A layout for a font of these metrics.
  public init(ascent: Int, descent: Int, characterWidth: Int) {
    self.ascent = ascent
    self.descent = descent
    self.characterWidth = characterWidth
  }

  /// A row's height: the font's, plus room for a box and space between boxes.
  public var rowHeight: Int { ascent + descent + 12 }

  /// The frame of row `index` in a window `width` wide.
  public func row(_ index: Int, width: Int) -> (x: Int, y: Int, width: Int, height: Int) {
    (Self.margin, Self.margin + index * rowHeight, max(width - 2 * Self.margin, 1), rowHeight - 4)
  }

  /// Where row `index`'s text starts and its baseline, in a window `width` wide.
  public func textOrigin(ofRow index: Int, width: Int) -> (x: Int, baseline: Int) {
    let row = row(index, width: width)
    return (row.x + 6, row.y + (row.height - ascent - descent) / 2 + ascent)
  }

  /// The row at window coordinates `(x, y)`, if any.
  public func row(at x: Int, _ y: Int, width: Int, count: Int) -> Int? {
    guard x >= Self.margin, x < width - Self.margin, y >= Self.margin else { return nil }
    let index = (y - Self.margin) / rowHeight
    guard index < count, (y - Self.margin) % rowHeight < rowHeight - 4 else { return nil }
    return index
  }

  /// The size that shows `lines` whole, within sensible bounds.
  public func preferredSize(for lines: [String], minimumWidth: Int = 320) -> (
    width: Int, height: Int
  ) {
    let longest = lines.map(\.count).max() ?? 0
    let width = min(max(minimumWidth, longest * characterWidth + 2 * Self.margin + 12), 900)
    return (width, max(lines.count, 1) * rowHeight + 2 * Self.margin)
  }

  /// `text` cut to the characters that fit in `width`, keeping the end (a file's name) and
  /// marking the cut with "...", in Latin-1 (other characters become "?").
  public func fitted(_ text: String, width: Int) -> [UInt8] {
    let capacity = max((width - 12) / characterWidth, 4)
    var scalars = Array(text.unicodeScalars)
    if scalars.count > capacity {
      scalars = Array("...".unicodeScalars) + scalars.suffix(capacity - 3)
    }
    return scalars.map { $0.value < 256 && $0.value >= 32 ? UInt8($0.value) : UInt8(ascii: "?") }
  }
}

extension RasterCanvas {
  /// Draws `rows` as the X11 window draws them: the background white, each boxed row
  /// outlined (three pixels when highlighted), each row's text fitted to its box.
  public mutating func draw(_ rows: [TextRow], layout: TextRowLayout = .fixedFont) {
    fill(Self.white)
    for (index, line) in rows.enumerated() {
      let row = layout.row(index, width: width)
      if line.boxed {
        outline(
          x: row.x, y: row.y, width: row.width, height: row.height,
          thickness: line.highlighted ? 3 : 1)
      }
      let origin = layout.textOrigin(ofRow: index, width: width)
      drawText(layout.fitted(line.text, width: row.width), x: origin.x, baseline: origin.baseline)
    }
  }
}
