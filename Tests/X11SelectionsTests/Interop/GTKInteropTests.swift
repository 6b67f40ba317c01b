import FerryTestSupport
import FerryTestTraits
import Foundation
import Pasteboard
import Testing
import UniformTypeIdentifiers
import X11Selections

/// A GTK 3 program (Tests/Peers/gtk_clipboard.py, python3-gi) reading what Ferry owns and
/// owning what Ferry reads. GTK takes any selection name, so each test has its own and the
/// tests run in parallel.
@Suite(.skipsWithoutPeers) struct GTKInteropTests {
  @Test func gtkReadsFerrysTextInEveryTextTarget() async throws {
    let (xvfb, display) = try await openDisplay()
    defer { display.close() }
    let selection = uniqueSelection("gtkread")
    try await display.own(selection, item: textItem("héllo wörld"))

    let result = try await ScriptPeer.gtk.run(
      [
        "--selection", selection.rawValue, "read", "UTF8_STRING", "STRING", "COMPOUND_TEXT", "TEXT",
        "text/plain;charset=utf-8", "image/png",
      ],
      display: xvfb.name)
    #expect(result.status == 0, "\(result.stderrText)")
    let targetsLine = result.stdoutText.split(separator: "\n").first { $0.hasPrefix("targets:") }
    let gtkTargets = targetsLine.map {
      $0.dropFirst("targets: ".count).split(separator: " ").map(String.init)
    }
    #expect(
      try await gtkTargets == display.targets(of: selection), "GTK sees Ferry's TARGETS, in order")

    let lines = ScriptReadLine.parse(result.stdoutText)
    let text = utf8Hex("héllo wörld")
    #expect(lines["UTF8_STRING"]?.fields?["type"] == "UTF8_STRING")
    #expect(lines["UTF8_STRING"]?.fields?["text"] == text)
    #expect(
      lines["STRING"]?.fields?["hex"]
        == Data("héllo wörld".unicodeScalars.map { UInt8($0.value) }).hex)
    #expect(lines["STRING"]?.fields?["text"] == text, "GTK decodes Ferry's Latin-1")
    #expect(lines["COMPOUND_TEXT"]?.fields?["type"] == "COMPOUND_TEXT")
    #expect(lines["COMPOUND_TEXT"]?.fields?["text"] == text, "GTK decodes Ferry's compound text")
    #expect(lines["TEXT"]?.fields?["text"] == text)
    #expect(lines["text/plain;charset=utf-8"]?.fields?["text"] == text)
    #expect(
      lines["image/png"] != nil && lines["image/png"]?.fields == nil,
      "refused: \(result.stdoutText)")
  }

  @Test func gtkReadsFerrysNonLatin1CompoundText() async throws {
    let (xvfb, display) = try await openDisplay()
    defer { display.close() }
    let selection = uniqueSelection("gtkctext")
    try await display.own(selection, item: textItem("5 € ok"))
    let result = try await ScriptPeer.gtk.run(
      ["--selection", selection.rawValue, "read", "COMPOUND_TEXT"], display: xvfb.name)
    let line = ScriptReadLine.parse(result.stdoutText)["COMPOUND_TEXT"]
    #expect(line?.fields?["type"] == "COMPOUND_TEXT", "\(result.stdoutText)")
    #expect(line?.fields?["text"] == utf8Hex("5 € ok"), "\(result.stdoutText)")
  }

  @Test func gtkReadsALargePayloadByIncr() async throws {
    let (xvfb, display) = try await openDisplay()
    defer { display.close() }
    let limit = try await display.maximumRequestBytes
    let payload = await RandomPayload.bytes(count: 2 * limit + 3, seed: 21)
    let selection = uniqueSelection("gtkincr")
    try await display.own(
      selection, item: PasteboardItem(representations: [.data(payload, type: .data)]))
    let result = try await ScriptPeer.gtk.run(
      ["--selection", selection.rawValue, "read", "application/octet-stream"], display: xvfb.name)
    let line = ScriptReadLine.parse(result.stdoutText)["application/octet-stream"]
    #expect(line?.fields?["len"] == "\(payload.count)", "\(result.stdoutText) \(result.stderrText)")
    let digest = try await sha256Hex(payload)
    #expect(line?.fields?["sha256"] == digest)
  }

  @Test func ferryReadsWhatGTKOwns() async throws {
    let (xvfb, display) = try await openDisplay()
    defer { display.close() }
    let selection = uniqueSelection("gtkown")
    let owner = try await ScriptPeer.gtk.start(
      [
        "--selection", selection.rawValue, "own", "plain from gtk ünïcode", "UTF8_STRING",
        "text/html",
      ], display: xvfb.name)
    defer { owner.terminate() }
    try await owner.expectOutput("ready")

    #expect(
      try await display.targets(of: selection) == [
        "TIMESTAMP", "TARGETS", "MULTIPLE", "UTF8_STRING", "text/html",
      ])
    #expect(try await display.readText(selection) == "plain from gtk ünïcode")
    let html = try await display.read(selection, target: "text/html")
    #expect(html.type == "text/html" && html.format == 8 && !html.wasIncremental)
    #expect(html.data == Data("plain from gtk ünïcode".utf8))
    let timestamp = try await display.read(selection, target: "TIMESTAMP")
    #expect(timestamp.type == "INTEGER" && timestamp.format == 32 && timestamp.data.count == 4)
    await #expect(throws: X11Error.refused(selection: selection, target: "image/png")) {
      try await display.read(selection, target: "image/png")
    }
  }

  @Test(arguments: [
    (target: "COMPOUND_TEXT", text: "5 € ok"),
    (target: "COMPOUND_TEXT", text: "héllo"),
    (target: "STRING", text: "héllo ÿ"),
  ])
  func ferryDecodesGTKsLegacyEncodings(target: String, text: String) async throws {
    let (xvfb, display) = try await openDisplay()
    defer { display.close() }
    let selection = uniqueSelection("gtklegacy")
    // GTK encodes these itself (gtk_selection_data_set_text): Latin-1 for STRING, ISO 2022
    // for COMPOUND_TEXT. Offering only that target makes readText fall back to it.
    let owner = try await ScriptPeer.gtk.start(
      ["--selection", selection.rawValue, "own", text, target], display: xvfb.name)
    defer { owner.terminate() }
    try await owner.expectOutput("ready")
    let reply = try await display.read(selection, target: target)
    #expect(reply.type == target)
    #expect(try await display.decodeText(reply) == text, "bytes \(reply.data.hex)")
    #expect(try await display.readText(selection) == text)
  }

  @Test func ferryReadsALargeGTKPayloadByIncr() async throws {
    let (xvfb, display) = try await openDisplay()
    defer { display.close() }
    let scratch = try ScratchDirectory("gtkincr")
    let payload = scratch.file("payload")
    try await RandomPayload.write(count: 3 << 20, seed: 5, to: payload)
    let selection = uniqueSelection("gtkbig")
    let owner = try await ScriptPeer.gtk.start(
      ["--selection", selection.rawValue, "own", "@\(payload.path)", "application/octet-stream"],
      display: xvfb.name)
    defer { owner.terminate() }
    try await owner.expectOutput("ready")

    let received = scratch.file("received")
    let descriptor = open(received.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    let reply = try await display.read(
      selection, target: "application/octet-stream", into: .fileDescriptor(descriptor))
    #expect(reply.wasIncremental, "GTK sends INCR above its own request limit")
    #expect(reply.byteCount == 3 << 20 && reply.data.isEmpty)
    #expect(try await filesAreEqual(payload, received))
  }
}
