import FerryTestSupport
import FerryTestTraits
import Foundation
import RasterDrawing
import Testing
import X11Selections

@testable import DragWindows

/// The picture a client-drawn window (Wayland, issue 40) makes of `ferry drag`'s rows is the
/// X11 window's, pixel for pixel: the same rows, layout and font, drawn by Xvfb and by
/// ``RasterCanvas``.
@Suite(.skipsWithoutPeers("Xvfb", "xwd")) struct ClientDrawnWindowTests {
  @Test func theCanvasDrawsTheDragWindowAsTheXServerDoes() async throws {
    let server = try await XvfbServer.disposable()
    defer { server.stop() }
    let name = server.name
    let display = try await DetachedThread.run { try X11Display(name: name) }
    let entries = [
      DragEntry.files([URL(fileURLWithPath: "/etc/hostname")]),
      DragEntry.files([
        URL(fileURLWithPath: "/home/ana/Documents/a rather long folder name/Größenangaben März.txt")
      ]),
    ]
    let window = try await display.openDragWindow(entries)
    defer { window.close() }
    let rows = DragWindowController.lines(
      entries: entries, dragging: nil, footer: "Nothing dragged yet.")
    let size = TextRowLayout.fixedFont.preferredSize(for: rows.map(\.text))
    var canvas = RasterCanvas(width: size.width, height: size.height)
    canvas.draw(rows)
    #expect(canvas.pixels.contains(RasterCanvas.black), "something is drawn")

    let differing = TrackedMutex<[String]>(["no dump yet"])
    let same = await Deadline.wait(for: .seconds(20)) { () async -> Bool in
      guard
        let dump = try? await DetachedThread.run({
          try PeerProcess.run(
            ["xwd", "-silent", "-nobdrs", "-id", "\(window.window.rawValue)"], display: name,
            timeout: .seconds(20))
        }), dump.status == 0, let image = try? XWDImage(dump.stdout)
      else { return false }
      guard image.width == canvas.width, image.height == canvas.height else {
        differing.withLock {
          $0 = ["\(image.width)×\(image.height), not \(canvas.width)×\(canvas.height)"]
        }
        return false
      }
      var found: [String] = []
      for y in 0..<image.height {
        for x in 0..<image.width
        where (image.pixel(x, y) & 0xFF_FFFF == 0) != (canvas[x, y] == RasterCanvas.black) {
          found.append("(\(x), \(y))")
        }
      }
      differing.withLock { $0 = found }
      return found.isEmpty
    }
    #expect(
      same, "\(differing.withLock { $0.count }) differ: \(differing.withLock { $0.prefix(12) })")
  }
}
