import CoreTransferable
import Foundation
import Testing
import UniformTypeIdentifiers

/// A model class with mutable state and no `Sendable` conformance, as apps often have: it
/// conforms exactly as it would on Apple's platforms.
final class Canvas {
  var strokes: [String]

  init(strokes: [String]) {
    self.strokes = strokes
  }
}

extension UTType {
  static let canvas = UTType(exportedAs: "com.example.transfer-tests.canvas")
}

extension Canvas: Transferable {
  static var transferRepresentation: some TransferRepresentation {
    DataRepresentation(contentType: .canvas) { canvas in
      Data(canvas.strokes.joined(separator: "\n").utf8)
    } importing: { data in
      Canvas(strokes: String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init))
    }
    ProxyRepresentation(exporting: { (canvas: Canvas) in "\(canvas.strokes.count) strokes" })
  }
}

@Suite("Non-Sendable models")
struct NonSendableModelTests {
  @Test func classModelTransfersBothWays() async throws {
    let canvas = Canvas(strokes: ["line", "circle"])
    #expect(canvas.exportedContentTypes() == [.canvas, .utf8PlainText, .plainText])
    let data = try await canvas.exported(as: .canvas)
    let copy = try await Canvas(importing: data, contentType: .canvas)
    #expect(copy.strokes == ["line", "circle"])
    #expect(copy !== canvas)
    #expect(try await canvas.transferred(as: String.self) == "2 strokes")
  }

  @Test func exportsReadTheValueWhenTheyRun() async throws {
    let canvas = Canvas(strokes: ["line"])
    let export = try #require(canvas.transferExport(accepting: [.canvas]))
    canvas.strokes.append("dot")
    // The export holds the instance, and produces its bytes only when asked.
    #expect(text(try await export.data()) == "line\ndot")
  }
}
