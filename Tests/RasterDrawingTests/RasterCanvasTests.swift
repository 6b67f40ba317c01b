import Foundation
import RasterDrawing
import Testing

/// The canvas's drawing on its own: glyphs where the font puts them, outlines as
/// `XDrawRectangle` draws them, clipping, and `?` for what Latin-1 cannot show.
@Suite struct RasterCanvasTests {
  /// The canvas's rows as text, `#` for black, for a failing expectation's message.
  private func picture(_ canvas: RasterCanvas) -> String {
    (0..<canvas.height).map { y in
      String((0..<canvas.width).map { canvas[$0, y] == RasterCanvas.black ? "#" : "." })
    }.joined(separator: "\n")
  }

  @Test func theFontIsXsFixed() {
    #expect(FixedFont.cellWidth == 6 && FixedFont.cellHeight == 13 && FixedFont.ascent == 11)
    // misc-fixed 6x13's "A": a peak at row 2, the bar at row 7.
    #expect(
      Array(FixedFont.glyph(UInt8(ascii: "A")))
        == [0x00, 0x00, 0x20, 0x50, 0x88, 0x88, 0x88, 0xF8, 0x88, 0x88, 0x88, 0x00, 0x00])
    #expect(FixedFont.glyph(UInt8(ascii: " ")).allSatisfy { $0 == 0 })
    #expect(FixedFont.glyph(0x07) == FixedFont.glyph(UInt8(ascii: "?")), "a control character")
    #expect(FixedFont.glyph(0xE9) != FixedFont.glyph(UInt8(ascii: "e")), "é has its own glyph")
    #expect(FixedFont.glyph(0xFF).contains { $0 != 0 }, "the last glyph, ÿ, is there")
  }

  @Test func textIsDrawnFromItsBaselineOneCellAPiece() {
    var canvas = RasterCanvas(width: 12, height: 13)
    canvas.drawText(Array("AA".utf8), x: 0, baseline: 11)
    for y in 0..<13 {
      for x in 0..<12 {
        let bits = FixedFont.glyph(UInt8(ascii: "A"))[
          FixedFont.glyph(UInt8(ascii: "A")).startIndex + y]
        let set = bits & (0x80 >> (x % 6)) != 0
        #expect((canvas[x, y] == RasterCanvas.black) == set, "(\(x), \(y))\n\(picture(canvas))")
      }
    }
  }

  @Test func anOutlineIsThePixelsXDrawRectangleDraws() {
    var canvas = RasterCanvas(width: 8, height: 6)
    canvas.outline(x: 1, y: 1, width: 6, height: 4, thickness: 1)
    #expect(
      picture(canvas)
        == ["........", ".######.", ".#....#.", ".#....#.", ".######.", "........"].joined(
          separator: "\n"))
    var thick = RasterCanvas(width: 8, height: 8)
    thick.outline(x: 0, y: 0, width: 8, height: 8, thickness: 3)
    #expect(thick[2, 2] == RasterCanvas.black && thick[3, 3] == RasterCanvas.white)
    #expect(thick.pixels.filter { $0 == RasterCanvas.black }.count == 64 - 4, "2×2 left inside")
  }

  @Test func drawingPastTheEdgesIsClipped() {
    var canvas = RasterCanvas(width: 5, height: 5)
    canvas.drawText(Array("WW".utf8), x: -3, baseline: 2)
    canvas.outline(x: -2, y: -2, width: 20, height: 20, thickness: 2)
    canvas.fillRectangle(x: 4, y: 4, width: 9, height: 9, color: RasterCanvas.black)
    #expect(canvas.pixels.count == 25)
    #expect(canvas[4, 4] == RasterCanvas.black)
  }
}
