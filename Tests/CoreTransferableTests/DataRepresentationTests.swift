import CoreTransferable
import Foundation
import Testing
import UniformTypeIdentifiers

extension UTType {
  static let layer = UTType(exportedAs: "com.example.transfer-tests.layer")
}

/// The talk's image layer: its own format both ways, PNG out only, a legacy format in only.
struct ImageDocumentLayer: Equatable, Transferable {
  var pixels: [UInt8]

  static var transferRepresentation: some TransferRepresentation {
    DataRepresentation(contentType: .layer) { layer in
      Data(layer.pixels)
    } importing: { data in
      ImageDocumentLayer(pixels: Array(data))
    }
    DataRepresentation(exportedContentType: .png) { layer in
      await Task.yield()  // exporters may suspend
      return Data([0x89, 0x50, 0x4E, 0x47] + layer.pixels)
    }
    DataRepresentation(importedContentType: .bmp) { data in
      guard data.starts(with: [0x42, 0x4D]) else { throw LayerError.notBMP }
      return ImageDocumentLayer(pixels: Array(data.dropFirst(2)))
    }
  }
}

enum LayerError: Error { case notBMP }

@Suite("DataRepresentation")
struct DataRepresentationTests {
  let layer = ImageDocumentLayer(pixels: [1, 2, 3])

  @Test func exportsAndImportsBothWays() async throws {
    let data = try await layer.exported(as: .layer)
    #expect(data == Data([1, 2, 3]))
    #expect(try await ImageDocumentLayer(importing: data, contentType: .layer) == layer)
  }

  @Test func exportOnlyRepresentationIsNotImported() async throws {
    #expect(try await layer.exported(as: .png) == Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]))
    #expect(!ImageDocumentLayer.importedContentTypes().contains(.png))
    let error = await #expect(throws: TransferError.self) {
      try await ImageDocumentLayer(importing: Data([0x89]), contentType: .png)
    }
    #expect(error?.code == .noSuchRepresentation)
  }

  @Test func importOnlyRepresentationIsNotExported() async throws {
    #expect(
      try await ImageDocumentLayer(importing: Data([0x42, 0x4D, 9]), contentType: .bmp)
        == ImageDocumentLayer(pixels: [9]))
    #expect(ImageDocumentLayer.exportedContentTypes() == [.layer, .png])
    #expect(ImageDocumentLayer.importedContentTypes() == [.layer, .bmp])
    let error = await #expect(throws: TransferError.self) { try await layer.exported(as: .bmp) }
    #expect(error?.code == .noSuchRepresentation)
  }

  @Test func receiverOfImagesTakesThePNG() async throws {
    let export = try #require(layer.transferExport(accepting: [.image]))
    #expect(export.contentType == .png)
    #expect(!export.isFileBacked)
  }

  @Test func importWithoutAContentTypeTriesEachRepresentationInOrder() async throws {
    // The layer importer accepts anything, so it wins.
    #expect(
      try await ImageDocumentLayer(importing: Data([0x42, 0x4D, 7]), contentType: nil)
        == ImageDocumentLayer(pixels: [0x42, 0x4D, 7]))
  }

  @Test func dataRepresentationCanBeReadAsAFile() async throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let file = try await layer.export(to: scratch.url, contentType: .png)
    #expect(file.lastPathComponent == "ImageDocumentLayer.png")
    #expect(try Data(contentsOf: file) == Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]))
  }
}
