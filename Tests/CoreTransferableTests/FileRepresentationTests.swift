import CoreTransferable
import FerrySystem
import Foundation
import Testing
import UniformTypeIdentifiers

/// Records what its file importer received, and whether the file still existed afterwards.
final class ReceivedLog: Sendable {
  private let entries = TrackedMutex<[ReceivedTransferredFile]>([])

  func record(_ file: ReceivedTransferredFile) {
    entries.withLock { $0.append(file) }
  }

  var files: [ReceivedTransferredFile] { entries.withLock { $0 } }
}

/// A document that opens in place when it can, and reads its text from the received file.
struct Document: Transferable {
  static let log = ReceivedLog()
  var url: URL
  var text: String
  var wasOriginal: Bool

  static var transferRepresentation: some TransferRepresentation {
    FileRepresentation(contentType: .plainText, shouldAttemptToOpenInPlace: true) { document in
      SentTransferredFile(document.url)
    } importing: { received in
      Document.log.record(received)
      return Document(
        url: received.file, text: try String(contentsOf: received.file, encoding: .utf8),
        wasOriginal: received.isOriginalFile)
    }
  }
}

/// A report whose PDF may be opened in place, imported from copies only.
struct Report: Transferable {
  static let log = ReceivedLog()
  var url: URL

  static var transferRepresentation: some TransferRepresentation {
    FileRepresentation(exportedContentType: .pdf, shouldAllowToOpenInPlace: true) { report in
      SentTransferredFile(report.url)
    }
    .suggestedFileName("Quarterly Report")
    FileRepresentation(importedContentType: .pdf) { received in
      Report.log.record(received)
      let keep = try Scratch().url.appendingPathComponent("kept.pdf")
      try FileManager.default.copyItem(at: received.file, to: keep)
      return Report(url: keep)
    }
  }
}

/// A sender that lets a single file be opened in place.
struct SharedSheet: Transferable {
  var url: URL

  static var transferRepresentation: some TransferRepresentation {
    FileRepresentation(exportedContentType: .commaSeparatedText) { sheet in
      SentTransferredFile(sheet.url, allowAccessingOriginalFile: true)
    }
  }
}

/// A receiver that attempts to open comma-separated text in place.
struct SheetReader: Transferable {
  var received: ReceivedTransferredFile

  static var transferRepresentation: some TransferRepresentation {
    FileRepresentation(importedContentType: .commaSeparatedText, shouldAttemptToOpenInPlace: true) {
      SheetReader(received: $0)
    }
  }
}

@Suite("FileRepresentation", .serialized)
struct FileRepresentationTests {
  @Test func exportedFileIsACopyInTheDestination() async throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let original = try scratch.file("movie.mp4", contents: Data(repeating: 42, count: 70_000))
    let destination = scratch.url.appendingPathComponent("out", isDirectory: true)
    try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)

    let file = try await Video(url: original).export(to: destination, contentType: .mpeg4Movie)
    #expect(file.deletingLastPathComponent().standardizedFileURL == destination.standardizedFileURL)
    #expect(file.lastPathComponent == "movie.mp4")
    #expect(try Data(contentsOf: file) == Data(repeating: 42, count: 70_000))

    // A second export never replaces the first.
    let second = try await Video(url: original).export(to: destination, contentType: .mpeg4Movie)
    #expect(second.lastPathComponent == "movie 2.mp4")
  }

  @Test func importedFileIsATemporaryCopyRemovedAfterTheImporter() async throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let original = try scratch.file("report.pdf", contents: Data("%PDF-1.7".utf8))
    let before = Report.log.files.count

    let report = try await Report(importing: original, contentType: .pdf)
    let received = try #require(Report.log.files.dropFirst(before).first)
    #expect(!received.isOriginalFile)
    #expect(received.file != original)
    #expect(!exists(received.file), "the transfer removes its temporary copy")
    #expect(exists(original), "the sender's file is untouched")
    #expect(try Data(contentsOf: report.url) == Data("%PDF-1.7".utf8))
    try? FileManager.default.removeItem(at: report.url.deletingLastPathComponent())
  }

  @Test func receiverThatAttemptsToOpenInPlaceGetsTheOriginalWhenAllowed() async throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let original = try scratch.file("notes.txt", contents: Data("in place".utf8))

    // Both sides agree through the combined initializer.
    let viaTransfer = try await Document(url: original, text: "", wasOriginal: false)
      .transferred(as: Document.self)
    #expect(viaTransfer.wasOriginal)
    #expect(viaTransfer.url == original)
    #expect(viaTransfer.text == "in place")

    // A URL handed to init(importing:contentType:) is opened in place too.
    let viaURL = try await Document(importing: original, contentType: .plainText)
    #expect(viaURL.wasOriginal && viaURL.url == original)
  }

  @Test func perFileAllowanceOpensInPlace() async throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let original = try scratch.file("sheet.csv", contents: Data("a,b\n".utf8))
    let reader = try await SharedSheet(url: original).transferred(as: SheetReader.self)
    #expect(reader.received.isOriginalFile)
    #expect(reader.received.file == original)
  }

  @Test func senderThatDoesNotAllowInPlaceSendsACopy() async throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let original = try scratch.file("clip.mp4", contents: Data("movie".utf8))
    // Video's representation allows nothing in place: the receiver gets a copy even though it asks.
    let export = try #require(Video(url: original).transferExport(accepting: [.mpeg4Movie]))
    let received = try await export.file(in: scratch.url, openingInPlace: true)
    #expect(!received.isOriginalFile)
    #expect(received.file != original)
    #expect(try Data(contentsOf: received.file) == Data("movie".utf8))
  }

  @Test func exportOnlyAllowanceAndSuggestedName() async throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let original = try scratch.file("r.pdf", contents: Data("%PDF".utf8))
    let report = Report(url: original)
    #expect(Report.exportedContentTypes() == [.pdf])
    #expect(Report.importedContentTypes() == [.pdf])
    #expect(report.suggestedFilename == "Quarterly Report")

    let export = try #require(report.transferExports().first)
    #expect(export.isFileBacked && export.allowsOpeningInPlace)
    let inPlace = try await export.file(in: scratch.url, openingInPlace: true)
    #expect(inPlace.isOriginalFile && inPlace.file == original)

    let copy = try await report.export(to: scratch.url, contentType: nil)
    #expect(copy.lastPathComponent == "Quarterly Report.pdf")
  }

  @Test func fileImporterReceivesDataAsATemporaryFile() async throws {
    let before = Report.log.files.count
    let report = try await Report(importing: Data("%PDF-data".utf8), contentType: .pdf)
    let received = try #require(Report.log.files.dropFirst(before).first)
    #expect(!received.isOriginalFile)
    #expect(received.file.pathExtension == "pdf")
    #expect(!exists(received.file))
    #expect(try Data(contentsOf: report.url) == Data("%PDF-data".utf8))
    try? FileManager.default.removeItem(at: report.url.deletingLastPathComponent())
  }

  @Test func exportedAsDataReadsTheFile() async throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let original = try scratch.file("clip.mp4", contents: Data("frames".utf8))
    #expect(try await Video(url: original).exported(as: .movie) == Data("frames".utf8))
  }

  @Test func withExportedFileRemovesTheFileAfterwards() async throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let original = try scratch.file("clip.mp4", contents: Data("frames".utf8))
    let (file, contents) = try await Video(url: original).withExportedFile(contentType: .mpeg4Movie)
    {
      ($0, try Data(contentsOf: $0))
    }
    #expect(contents == Data("frames".utf8))
    #expect(file != original)
    #expect(!exists(file))
    #expect(exists(original))
  }

  @Test func missingSentFileFailsTheExport() async throws {
    let video = Video(url: URL(fileURLWithPath: "/nonexistent/ferry/clip.mp4"))
    let error = await #expect(throws: TransferError.self) {
      try await video.transferred(as: Video.self)
    }
    #expect(error?.code == .exportFailed)
    #expect(error?.typeName == "Video")
    #expect(error?.contentType == .mpeg4Movie)
    #expect(error.map { "\($0)" }?.contains("/nonexistent/ferry/clip.mp4") == true)
  }
}

/// A bundle of files: a folder on disk.
struct PhotoAlbum: Transferable {
  var folder: URL

  static var transferRepresentation: some TransferRepresentation {
    FileRepresentation(contentType: .folder) { album in
      SentTransferredFile(album.folder)
    } importing: { received in
      let keep = try Scratch().url.appendingPathComponent(received.file.lastPathComponent)
      try FileManager.default.copyItem(at: received.file, to: keep)
      return PhotoAlbum(folder: keep)
    }
  }
}

@Suite("FileRepresentation of folders")
struct FolderRepresentationTests {
  @Test func folderIsCopiedWhole() async throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let folder = scratch.url.appendingPathComponent("Summer", isDirectory: true)
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("Day 1"), withIntermediateDirectories: true)
    try Data("beach".utf8).write(to: folder.appendingPathComponent("Day 1/a.jpg"))
    try Data("hills".utf8).write(to: folder.appendingPathComponent("b.jpg"))

    let out = scratch.url.appendingPathComponent("out", isDirectory: true)
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    let first = try await PhotoAlbum(folder: folder).export(to: out, contentType: .folder)
    let second = try await PhotoAlbum(folder: folder).export(to: out, contentType: .folder)
    #expect(first.lastPathComponent == "Summer")
    #expect(second.lastPathComponent == "Summer 2")
    #expect(
      try Data(contentsOf: second.appendingPathComponent("Day 1/a.jpg")) == Data("beach".utf8))

    let album = try await PhotoAlbum(folder: folder).transferred(as: PhotoAlbum.self)
    defer { try? FileManager.default.removeItem(at: album.folder.deletingLastPathComponent()) }
    #expect(album.folder != folder)
    #expect(
      try Data(contentsOf: album.folder.appendingPathComponent("b.jpg")) == Data("hills".utf8))
    #expect(exists(folder.appendingPathComponent("b.jpg")))
  }
}
