import FerrySystem
import FerryTestSupport
import Foundation
import Testing

/// Every Python peer pins the version of each GObject namespace it imports, so that a machine
/// with GTK 4's typelib (gir1.2-gtk-4.0, which GNOME desktops have) runs the GTK 3 peers as
/// this one does: without the pin PyGObject loads Gdk 4.0 beside Gtk 3.0 and the import fails
/// ("Requiring namespace 'Gdk' version '3.0', but '4.0' is already loaded"). The peers are
/// every Python file, script and Swift string literal that imports from `gi.repository`, as
/// `Scripts/check-gi-versions` finds them.
@Suite("Python peers' GObject imports")
struct PythonPeerImportTests {
  static let script = PeerSources.directory
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()
    .appendingPathComponent("Scripts/check-gi-versions").path

  /// Runs `Scripts/check-gi-versions` with `arguments`.
  func check(_ arguments: [String]) async throws -> PeerProcess.Result {
    let python = try unlessAvailable(Peers.systemPython, "/usr/bin/python3")
    return try await DetachedThread.run {
      try PeerProcess.run([python, Self.script] + arguments, display: nil, timeout: .seconds(60))
    }
  }

  @Test func everyPeerPinsEachNamespaceItImports() async throws {
    let result = try await check([])
    #expect(result.status == 0, "\(result.stderrText)")
  }

  /// The check finds an unpinned import at a file's top level, in a function, and in a Swift
  /// literal; a pin in the enclosing scope counts, one after the import does not.
  @Test func theCheckFindsEachUnpinnedNamespace() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("ferry-gi-check-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    // The module's name is spelled apart, so that the check does not take this file's
    // deliberate mistakes for a peer's.
    let repository = "gi" + ".repository"
    let peer = directory.appendingPathComponent("peer.py")
    try Data(
      """
      import gi
      gi.require_version('Gtk', '3.0')
      from \(repository) import Gdk, Gtk

      def read():
          gi.require_version('GdkPixbuf', '2.0')
          from \(repository) import GdkPixbuf, GLib
          gi.require_version('GLib', '2.0')

      """.utf8
    ).write(to: peer)
    let swift = directory.appendingPathComponent("Peer.swift")
    // A Swift file with a multi-line literal (its delimiters written here by interpolation,
    // so that this file has no literal inside a literal) and a line of one-line literals.
    let quotes = String(repeating: "\"", count: 3)
    try Data(
      #"""
      let owner = \#(quotes)
        import gi
        gi.require_versions({'Gtk': '3.0', 'Gdk': '3.0'})
        from \#(repository) import Gtk, Gdk, Pango
        \#(quotes)
      let check = ["import gi", "gi.require_version('Gtk', '3.0')", "from \#(repository) import Gtk"]

      """#.utf8
    ).write(to: swift)
    let result = try await check([peer.path, swift.path])
    #expect(result.status == 1)
    let lines = result.stderrText.split(separator: "\n").map(String.init)
    for expected in [
      "peer.py:3: Gdk is imported", "peer.py:7 (in read): GLib is imported",
      "Peer.swift:4: Pango is imported",
    ] {
      #expect(lines.contains { $0.contains(expected) }, "\(expected) in \(result.stderrText)")
    }
    #expect(lines.count == 4, "three unpinned imports and the summary: \(result.stderrText)")
  }

  /// Runs each peer's import block — `import gi`, its `require_version` calls and its imports
  /// from `gi.repository`, in order — with a GTK 4 beside GTK 3 on the typelib path: stand-ins
  /// made from GTK 3's typelibs with their version rewritten (`--gtk4-typelibs`), which
  /// PyGObject prefers to 3.0 as it does the real ones. A block that asks for GTK 4 itself
  /// (`gtk4_rich_copy.py`, the GTK 4 check of the interop tests) would load GTK 3 under 4.0's
  /// name there: it runs on the machine's own typelibs instead, when GTK 4's are installed.
  @Test func everyPeersImportsLoadGTK3WithGTK4Installed() async throws {
    let python = try unlessAvailable(Peers.systemPython, "/usr/bin/python3")
    let gtk3 = try await DetachedThread.run {
      try PeerProcess.run(
        [
          python, "-c",
          "import gi; gi.require_version('Gtk', '3.0'); gi.require_version('GdkX11', '3.0')"
            + "; from gi.repository import Gtk, GdkX11",
        ], display: nil)
    }
    if gtk3.status != 0 {
      try Test.cancel("skipped: python3-gi with GTK 3 (gir1.2-gtk-3.0) is not installed")
    }
    let typelibs = FileManager.default.temporaryDirectory
      .appendingPathComponent("ferry-gtk4-typelibs-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: typelibs) }
    let written = try await check(["--gtk4-typelibs", typelibs])
    try #require(written.status == 0, "\(written.stderrText)")
    let listed = try await check(["--import-blocks"])
    try #require(listed.status == 0, "\(listed.stderrText)")
    let blocks = try JSONDecoder().decode([ImportBlock].self, from: listed.stdout)
    #expect(blocks.count >= 10, "the peers' import blocks: \(blocks.map(\.source))")

    func run(_ code: String, standIns: Bool = true) async throws -> PeerProcess.Result {
      try await DetachedThread.run {
        try PeerProcess.run(
          [python, "-c", code], display: nil,
          environment: standIns ? ["GI_TYPELIB_PATH": typelibs] : [:])
      }
    }
    // The stand-ins bite: Gdk imported unpinned is 4.0, and Gtk 3.0 cannot load beside it.
    let repository = "gi" + ".repository"  // spelled apart, as above
    let unpinned = try await run(
      "import gi\ngi.require_version('Gtk', '3.0')\nfrom \(repository) import Gdk, Gtk")
    #expect(unpinned.status != 0)
    #expect(
      unpinned.stderrText.contains("Requiring namespace 'Gdk' version '3.0', but '4.0'"),
      "\(unpinned.stderrText)")
    let gtk4Installed = FileManager.default.fileExists(
      atPath: "/usr/lib/x86_64-linux-gnu/girepository-1.0/Gtk-4.0.typelib")
    for block in blocks {
      let asksForGTK4 = ["Gtk", "Gdk"].contains { block.code.contains("('\($0)', '4.0')") }
      if asksForGTK4 && !gtk4Installed { continue }
      let result = try await run(block.code, standIns: !asksForGTK4)
      #expect(result.status == 0, "\(block.source):\n\(block.code)\n\(result.stderrText)")
    }
  }

  /// One scope's GObject imports, as `Scripts/check-gi-versions --import-blocks` lists them.
  struct ImportBlock: Decodable {
    var source: String
    var code: String
  }

  /// `value`, or a skip naming `program` when it is `nil`.
  func unlessAvailable(_ value: String?, _ program: String) throws -> String {
    guard let value else { try Test.cancel("skipped: \(program) is not installed") }
    return value
  }
}
