import Testing

@testable import DragWindows

/// `--geometry` parsing and placement, and the text rows of the windows, without a server.
@Suite struct WindowGeometryTests {
  @Test(arguments: [
    ("300x200+0+0", WindowGeometry(width: 300, height: 200, x: 0, y: 0)),
    ("300x200", WindowGeometry(width: 300, height: 200)),
    ("+400+0", WindowGeometry(x: 400, y: 0)),
    ("=80X24+1+2", WindowGeometry(width: 80, height: 24, x: 1, y: 2)),
  ])
  func parses(_ text: String, _ expected: WindowGeometry) {
    #expect(WindowGeometry(text) == expected)
    #expect(
      WindowGeometry(text).map { WindowGeometry($0.description) } == expected,
      "description round-trips")
  }

  @Test func negativeOffsetsCountFromTheFarEdges() throws {
    let geometry = try #require(WindowGeometry("300x200-10-20"))
    #expect(geometry.xFromRight && geometry.yFromBottom)
    #expect(geometry.description == "300x200-10-20")
    let frame = geometry.frame(defaultSize: (1, 1), screen: (1280, 1024))
    #expect(frame.x == 1280 - 300 - 2 - 10)
    #expect(frame.y == 1024 - 200 - 2 - 20)
  }

  @Test(arguments: [
    "", "x", "300", "300x", "x200", "0x200", "300x0", "300x200+5", "300x200+a+b",
    "300x200+1+2junk", "-5", "1234567x2",
  ])
  func rejects(_ text: String) {
    #expect(WindowGeometry(text) == nil)
  }

  @Test func missingPartsComeFromTheDefaults() {
    let frame = WindowGeometry(x: 7, y: 9).frame(defaultSize: (320, 140), screen: (1280, 1024))
    #expect(frame == (7, 9, 320, 140))
    let sized = WindowGeometry(width: 100, height: 50).frame(
      defaultSize: (320, 140), screen: (1280, 1024))
    #expect(sized == (0, 0, 100, 50))
  }

  static let layout = SimpleWindow.Layout(ascent: 11, descent: 2, characterWidth: 6)

  @Test func rowsStackBelowTheMargin() {
    let rowHeight = Self.layout.rowHeight
    #expect(Self.layout.row(0, width: 360) == (8, 8, 344, rowHeight - 4))
    #expect(Self.layout.row(3, width: 360).y == 8 + 3 * rowHeight)
  }

  /// Rows are 25 pixels (11 + 2 + 12) from y = 8, the last 4 a gap between boxes.
  @Test(arguments: [[20, 10, 0], [20, 36, 1], [351, 60, 2]])
  func pointsFindTheirRow(_ point: [Int]) {
    let (x, y, row) = (point[0], point[1], point[2])
    #expect(Self.layout.row(at: x, y, width: 360, count: 4) == row)
  }

  @Test(arguments: [[2, 20], [355, 20], [20, 2], [20, 31], [20, 109]])
  func marginsGapsAndPastTheEndAreNoRow(_ point: [Int]) {
    let (x, y) = (point[0], point[1])
    #expect(Self.layout.row(at: x, y, width: 360, count: 4) == nil)
  }

  @Test func longTextKeepsItsEndAndBecomesLatin1() {
    let fitted = Self.layout.fitted(
      "/a/very/long/directory/name/that/goes/on/file.txt", width: 120)
    #expect(fitted.count == (120 - 12) / 6)
    #expect(String(decoding: fitted, as: UTF8.self).hasPrefix("..."))
    #expect(String(decoding: fitted, as: UTF8.self).hasSuffix("file.txt"))
    #expect(Self.layout.fitted("é✓", width: 300) == [0xe9, UInt8(ascii: "?")])
  }

  @Test func preferredSizeFitsTheLines() {
    let size = Self.layout.preferredSize(for: ["short", String(repeating: "w", count: 80)])
    #expect(size.width == 80 * 6 + 16 + 12)
    #expect(size.height == 2 * Self.layout.rowHeight + 16)
  }
}
