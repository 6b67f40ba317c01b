import FerryTestSupport
import FerryTestTraits
import Foundation
import RasterDrawing
import Testing

@testable import X11Selections

/// The canvas draws what the X server draws: the same text and outlines, drawn by Xvfb with
/// its default GC and `fixed` font (what `ferry drag`'s X11 window uses) and by
/// ``RasterCanvas``, are the same pixels — so a Wayland window with this font lays out as the
/// X11 window does.
@Suite(.skipsWithoutPeers("Xvfb", "xwd")) struct FixedFontXServerTests {
  @Test func theCanvasDrawsTheXServersPixels() async throws {
    let server = try await XvfbServer.disposable()
    defer { server.stop() }
    let name = server.name
    let display = try await DetachedThread.run { try X11Display(name: name) }
    let text = Array(
      "ferry drag: Ünïcödé.txt ~ {[|]} 0123456789 @#$%".unicodeScalars.map { UInt8($0.value) })
    // Every glyph of the font, 48 a line, below the boxes.
    let glyphs = Array(UInt8(0x20)...UInt8(0x7E)) + Array(UInt8(0xA0)...UInt8(0xFF))
    let glyphLines = stride(from: 0, to: glyphs.count, by: 48).map {
      Array(glyphs[$0..<min($0 + 48, glyphs.count)])
    }
    let (width, height) = (320, 60 + glyphLines.count * FixedFont.cellHeight)
    let (window, metrics) = try await display.loop.perform { session in
      let connection = session.connection
      let window = connection.createTopLevelWindow(
        x: 0, y: 0, width: width, height: height, eventMask: [])
      connection.mapWindow(window)
      _ = connection.sync()
      connection.drawRectangle(window, x: 8, y: 8, width: 304, height: 22, thickness: 3)
      connection.drawRectangle(window, x: 8, y: 34, width: 304, height: 18, thickness: 1)
      connection.drawString(window, x: 14, y: 23, latin1: text)
      connection.drawString(window, x: 14, y: 47, latin1: Array("notes.txt".utf8))
      for (index, line) in glyphLines.enumerated() {
        connection.drawString(
          window, x: 2, y: 60 + index * FixedFont.cellHeight + FixedFont.ascent, latin1: line)
      }
      _ = connection.sync()
      return (window.rawValue, connection.defaultFontMetrics())
    }
    #expect(metrics.ascent == FixedFont.ascent && metrics.width == FixedFont.cellWidth)
    #expect(metrics.ascent + metrics.descent == FixedFont.cellHeight)

    var canvas = RasterCanvas(width: width, height: height)
    canvas.outline(x: 8, y: 8, width: 304, height: 22, thickness: 3)
    canvas.outline(x: 8, y: 34, width: 304, height: 18, thickness: 1)
    canvas.drawText(text, x: 14, baseline: 23)
    canvas.drawText(Array("notes.txt".utf8), x: 14, baseline: 47)
    for (index, line) in glyphLines.enumerated() {
      canvas.drawText(line, x: 2, baseline: 60 + index * FixedFont.cellHeight + FixedFont.ascent)
    }

    let dump = try await DetachedThread.run {
      try PeerProcess.run(
        ["xwd", "-silent", "-nobdrs", "-id", "\(window)"], display: name, timeout: .seconds(20))
    }
    #expect(dump.status == 0, "\(dump.stderrText)")
    let image = try XWDImage(dump.stdout)
    #expect(image.width == width && image.height == height)
    var differing: [String] = []
    for y in 0..<height {
      for x in 0..<width {
        let black = image.pixel(x, y) & 0xFF_FFFF == 0
        if black != (canvas[x, y] == RasterCanvas.black) { differing.append("(\(x), \(y))") }
      }
    }
    #expect(differing.isEmpty, "\(differing.count) pixels differ: \(differing.prefix(20))")
    try await display.loop.perform { $0.connection.destroyWindow(XWindow(rawValue: window)) }
  }
}
