import FerryTestSupport
import FerryTestTraits
import Foundation
import Testing

/// Images converted on request, as other programs see them on a private Xvfb: a PNG copied
/// through the broker is offered to X readers in every format, each read back by xclip and
/// decoded by gdk-pixbuf (GTK's loader) with its pixels compared; a JPEG read as PNG by Qt; a
/// GTK image copy restored from the history with every format; hostile images cost one
/// conversion and the broker keeps answering.
@Suite(.serialized, .skipsWithoutPeers) struct ImageInteropTests {
  let xvfb: XvfbServer

  init() async throws {
    try Peers.require("xclip", "file")
    xvfb = try await XvfbServer.dedicated("images")
  }

  static let formats = [
    "image/png", "image/jpeg", "image/bmp", "image/tiff", "image/gif", "image/webp",
  ]

  /// The 64 × 48 gradient the tests copy (made by ImageMagick), and its JPEG.
  static let png = Tools.peersDirectory.appendingPathComponent("images/gradient.png").path
  static let jpeg = Tools.peersDirectory.appendingPathComponent("images/gradient.jpg").path

  private static func targets(_ fixture: BrokerFixture) async throws -> [String] {
    try await fixture.run(["xclip", "-o", "-selection", "clipboard", "-t", "TARGETS"]).stdoutText
      .split(separator: "\n").map(String.init)
  }

  /// Reads CLIPBOARD's `target` with xclip into a file named for it.
  private static func read(_ target: String, _ fixture: BrokerFixture) async throws -> (
    path: String, data: Data
  ) {
    let result = try await fixture.run(["xclip", "-o", "-selection", "clipboard", "-t", target])
    #expect(result.status == 0, "xclip -t \(target): \(result.stderrText)")
    let path = fixture.runtime.appendingPathComponent("read." + target.split(separator: "/")[1])
      .path
    try result.stdout.write(to: URL(fileURLWithPath: path))
    return (path, result.stdout)
  }

  /// gdk-pixbuf's view of `path` against `reference`: its size and the largest channel
  /// difference over the reference's opaque pixels.
  private static func gdk(_ path: String, against reference: String) async throws -> (
    size: String, difference: Int?
  ) {
    let python = try await Python.gtk
    let peer = Tools.peersDirectory.appendingPathComponent("image_peers.py").path
    let result = try await DetachedThread.run {
      try PeerProcess.run([python, peer, "gdk", path, reference], display: nil)
    }
    let words = result.stdoutText.split(separator: " ").map {
      $0.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    #expect(result.status == 0 && words.count == 2, "gdk-pixbuf on \(path): \(result.stderrText)")
    return (words.first ?? "", words.count == 2 ? Int(words[1]) : nil)
  }

  @Test func aPNGCopyIsOfferedToXInEveryFormatAndEachDecodes() async throws {
    let fixture = try await BrokerFixture(display: xvfb.name, start: true)
    let copy = try await fixture.run(
      ["pbcopy"], input: try Data(contentsOf: URL(fileURLWithPath: Self.png)))
    #expect(copy.status == 0, "\(copy.stderrText)")
    let targets = try await Self.targets(fixture)
    let offered = targets.filter { Self.formats.contains($0) }
    #expect(offered == Self.formats, "image/png first, then every conversion: \(targets)")
    // Each is an image of the same size, by `file` and by gdk-pixbuf (WebP through Debian's
    // webp-pixbuf-loader), whose pixels are the gradient's within the format's loss.
    let bounds = ["png": 0, "jpeg": 32, "bmp": 0, "tiff": 0, "gif": 40, "webp": 32]
    // A GTK program asks for JPEG, BMP and TIFF itself and decodes what it gets.
    for target in ["image/jpeg", "image/bmp", "image/tiff"] {
      let python = try await Python.gtk
      let peer = Tools.peersDirectory.appendingPathComponent("image_peers.py").path
      let gtk = try await fixture.run([python, peer, "gtk-read", target, Self.png])
      let words = gtk.stdoutText.split(separator: " ").map {
        $0.trimmingCharacters(in: .whitespacesAndNewlines)
      }
      #expect(words.first == "64x48", "GTK reading \(target): \(gtk.stdoutText) \(gtk.stderrText)")
      #expect(
        (words.count == 2 ? Int(words[1]) : nil) ?? .max <= bounds[String(target.dropFirst(6))]!,
        "GTK reading \(target): \(gtk.stdoutText)")
    }
    for target in Self.formats {
      let (path, data) = try await Self.read(target, fixture)
      let described = try await fixture.run(["file", "-b", path]).stdoutText
      #expect(
        described.contains("64 x 48") || described.contains("64x48")
          || described.contains("height=48"),
        "\(target): \(described)")
      let name = String(target.split(separator: "/")[1])
      let seen = try await Self.gdk(path, against: Self.png)
      #expect(seen.size == "64x48", "\(target) by gdk-pixbuf: \(seen.size)")
      #expect(
        (seen.difference ?? .max) <= bounds[name]!, "\(target): pixels \(seen.difference ?? -1) off"
      )
      #expect(!data.isEmpty)
    }
  }

  @Test func pbpasteAndTheHistoryServeConversionsToo() async throws {
    let fixture = try await BrokerFixture(display: xvfb.name, start: true)
    let copy = try await fixture.run(
      ["pbcopy"], input: try Data(contentsOf: URL(fileURLWithPath: Self.png)))
    #expect(copy.status == 0, "\(copy.stderrText)")
    let jpeg = try await fixture.run(["pbpaste", "--type", "jpeg"])
    #expect(jpeg.status == 0 && jpeg.stdout.starts(with: [0xFF, 0xD8, 0xFF]), "\(jpeg.stderrText)")
    let gif = try await fixture.run(["ferry", "paste", "--type", "image/gif"])
    #expect(gif.status == 0 && gif.stdout.starts(with: Data("GIF89a".utf8)), "\(gif.stderrText)")
    let entry = try #require(try await HistoryCommandTests.waitForEntries(fixture, count: 1).first)
    let bmp = try await fixture.run(["ferry", "history", "show", "\(entry.id)", "--type", "bmp"])
    #expect(bmp.status == 0 && bmp.stdout.starts(with: Data("BM".utf8)), "\(bmp.stderrText)")
  }

  @Test func aJPEGFileCopiedIsReadAsPNGByQt() async throws {
    let fixture = try await BrokerFixture(display: xvfb.name, start: true)
    let copy = try await fixture.run(
      ["pbcopy"], input: try Data(contentsOf: URL(fileURLWithPath: Self.jpeg)))
    #expect(copy.status == 0, "\(copy.stderrText)")
    #expect(try await Self.targets(fixture).first == "image/jpeg")
    let python = try await Python.qt
    let peer = Tools.peersDirectory.appendingPathComponent("image_peers.py").path
    let qt = try await fixture.run([python, peer, "qt-png"])
    #expect(
      qt.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "64x48",
      "\(qt.stdoutText) \(qt.stderrText)")
  }

  @Test func aGtkImageCopyIsRestoredFromTheHistoryWithEveryFormat() async throws {
    let fixture = try await BrokerFixture(display: xvfb.name, start: true)
    let gtk = try fixture.start(
      [
        try await Python.gtk, Tools.peersDirectory.appendingPathComponent("image_peers.py").path,
        "gtk-copy", Self.png,
      ])
    #expect(await waitForOutput(gtk, "ready"))
    let entry = try #require(try await HistoryCommandTests.waitForEntries(fixture, count: 1).first)
    _ = try await DetachedThread.run { gtk.kill() }
    // Something else is copied; then the GTK copy comes back from the history.
    #expect(try await fixture.run(["pbcopy"], input: Data("text".utf8)).status == 0)
    let restore = try await fixture.run(["ferry", "history", "restore", "\(entry.id)"])
    #expect(restore.status == 0, "\(restore.stderrText)")
    let targets = try await Self.targets(fixture)
    #expect(Set(Self.formats).isSubset(of: Set(targets)), "\(targets)")
    for target in ["image/bmp", "image/jpeg", "image/tiff"] {
      let (path, _) = try await Self.read(target, fixture)
      #expect(try await Self.gdk(path, against: Self.png).size == "64x48", "\(target)")
    }
  }

  /// The hostile images: a PNG that claims 100,000 × 100,000 pixels, a JPEG cut to its first
  /// 40 bytes, a TIFF whose strip lies past its end, and a GIF that claims 100,001 frames (whose
  /// first frame converts: the rest are never read).
  static func hostileImages() throws -> [(String, Data)] {
    let jpeg = try Data(contentsOf: URL(fileURLWithPath: jpeg)).prefix(40)
    return [
      ("png", HostileImages.pngClaiming(width: 100_000, height: 100_000)),
      ("jpeg", Data(jpeg)), ("tiff", HostileImages.tiffWithBogusOffset()),
      ("gif", HostileImages.gifWithFrames(100_000)),
    ]
  }

  @Test(arguments: try hostileImages())
  func aHostileImageCostsOneConversionAndTheBrokerGoesOn(type: String, image: Data) async throws {
    let fixture = try await BrokerFixture(display: xvfb.name, start: true)
    let copy = try await fixture.run(["pbcopy", "--type", type], input: image)
    #expect(copy.status == 0, "\(copy.stderrText)")
    let other = type == "png" ? "bmp" : "png"
    let converted = try await fixture.run(["pbpaste", "--type", other])
    if type == "gif" {
      #expect(
        converted.status == 0 && converted.stdout.starts(with: [0x89, 0x50]), "its first frame")
    } else {
      #expect(converted.status == 6 && converted.stdout.isEmpty, "\(type)")
      #expect(
        converted.stderrText.split(separator: "\n").count == 1,
        "one line: \(converted.stderrText)")
    }
    #expect(try await fixture.run(["ferry", "status"]).status == 0)
    #expect(
      try await fixture.run(["pbpaste", "--type", type]).stdout == image,
      "the copy is kept as it came")
    #expect(try await fixture.run(["pbcopy"], input: Data("after".utf8)).status == 0)
    #expect(try await fixture.run(["pbpaste"]).stdoutText == "after")
  }

  @Test func thePixelLimitIsTheConfigurations() async throws {
    try Peers.require("convert")
    let fixture = try await BrokerFixture(
      display: xvfb.name, start: true, environment: ["FERRY_IMAGES_PIXEL_LIMIT": "1"])
    let path = fixture.runtime.appendingPathComponent("big.png").path
    #expect(try await fixture.run(["convert", "-size", "1200x1000", "xc:red", path]).status == 0)
    #expect(try await fixture.run(["pbcopy", path]).status == 0)
    let refused = try await fixture.run(["pbpaste", "--type", "jpeg"])
    #expect(
      refused.status != 0 && refused.stderrText.contains("1200x1000"), "\(refused.stderrText)")
    let small = try await fixture.run(["pbcopy", Self.png])
    #expect(small.status == 0)
    #expect(
      try await fixture.run(["pbpaste", "--type", "jpeg"]).status == 0, "64x48 is within 1 MP")
  }

  @Test func imageEntriesHaveThumbnailsForThePicker() async throws {
    try Peers.require("convert")
    let fixture = try await BrokerFixture(display: xvfb.name, start: true)
    let big = fixture.runtime.appendingPathComponent("big.png").path
    #expect(
      try await fixture.run(["convert", "-size", "400x300", "gradient:red-blue", big]).status == 0)
    #expect(try await fixture.run(["pbcopy"], input: Data("a note".utf8)).status == 0)
    _ = try await HistoryCommandTests.waitForEntries(fixture, count: 1)
    #expect(try await fixture.run(["pbcopy", big]).status == 0)
    let entries = try await HistoryCommandTests.waitForEntries(fixture, count: 2)
    let image = try #require(entries.first { $0.types.contains("public.png") })

    // Plain menu lines stay as fzf and dmenu read them.
    #expect(!(try await fixture.run(["ferry", "history", "--format", "menu"]).stdout.contains(0)))
    let menu = try await fixture.run(["ferry", "history", "--format", "menu", "--icons"])
    #expect(menu.status == 0, "\(menu.stderrText)")
    let lines = menu.stdoutText.split(separator: "\n").map(String.init)
    let imageLine = try #require(lines.first { $0.hasPrefix("\(image.id)\t") })
    let parts = imageLine.components(separatedBy: "\u{0}icon\u{1F}")
    #expect(parts.count == 2, "\(imageLine)")
    let path = parts.last ?? ""
    #expect(FileManager.default.fileExists(atPath: path), "\(path)")
    #expect(lines.filter { $0.contains("\u{0}") }.count == 1, "the note has no icon: \(lines)")

    // The thumbnail fits 128 × 128 with the image's proportions, as gdk-pixbuf reads it.
    let shown = try await fixture.run(["ferry", "history", "show", "\(image.id)", "--thumbnail"])
    let kept = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(shown.status == 0 && shown.stdout == kept)
    #expect(try await Self.gdk(path, against: path).size == "128x96")
    let made = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
    _ = try await fixture.run(["ferry", "history", "--format", "menu", "--icons"])
    #expect(
      try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == made,
      "made once, then kept")
    let none = try await fixture.run([
      "ferry", "history", "show", "\(entries.last!.id)", "--thumbnail",
    ])
    #expect(none.status == 1 && none.stderrText.contains("holds no image"), "\(none.stderrText)")
  }
}
