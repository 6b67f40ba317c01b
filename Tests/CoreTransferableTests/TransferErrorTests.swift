import CoreTransferable
import Foundation
import Testing
import UniformTypeIdentifiers

/// A value whose exporter and importer always fail.
struct Broken: Transferable {
  static var transferRepresentation: some TransferRepresentation {
    DataRepresentation(contentType: .json) { (_: Broken) in
      throw BrokenError(reason: "the disk is full")
    } importing: { _ in
      throw BrokenError(reason: "the checksum does not match")
    }
  }
}

struct BrokenError: Error, CustomStringConvertible {
  let reason: String
  var description: String { reason }
}

/// A proxy whose synchronous exporter throws while the value is being listed.
struct UnlistableProxy: Transferable {
  static var transferRepresentation: some TransferRepresentation {
    ProxyRepresentation { (_: UnlistableProxy) throws -> String in
      throw BrokenError(reason: "no name yet")
    }
  }
}

@Suite("TransferError")
struct TransferErrorTests {
  @Test func noRepresentationForAnExport() async throws {
    let error = await #expect(throws: TransferError.self) {
      try await Profile(name: "Juan", bio: "").exported(as: .png)
    }
    #expect(error?.code == .noSuchRepresentation)
    #expect(error?.direction == .export)
    #expect(error?.underlyingError == nil)
    #expect(
      error?.description
        == "cannot export Profile as public.png: no representation supports that content type")
  }

  @Test func noRepresentationForAnImport() async throws {
    let error = await #expect(throws: TransferError.self) {
      try await Profile(importing: Data(), contentType: .plainText)
    }
    #expect(error?.code == .noSuchRepresentation)
    #expect(error?.direction == .import)
    #expect(
      error?.description
        == "cannot import Profile from public.plain-text: no representation supports that content type"
    )
  }

  @Test func noRepresentationTheReceiverSupports() async throws {
    let error = await #expect(throws: TransferError.self) {
      try await Profile(name: "Juan", bio: "").transferred(as: Video.self)
    }
    #expect(error?.code == .noSuchRepresentation)
    #expect(error?.description == "cannot export Profile: no representation matches")
  }

  @Test func exportingConditionFalse() async throws {
    let archive = ProfilesArchive(profiles: [Profile(name: "a\nb", bio: "")])
    let error = await #expect(throws: TransferError.self) {
      try await archive.exported(as: .plainText)
    }
    #expect(error?.code == .exportingConditionFalse)
    #expect(
      error?.description
        == "cannot export ProfilesArchive as public.plain-text: the exporting condition is false for this value"
    )
    // Nothing else is offered, so a file export fails the same way.
    let scratch = try Scratch()
    defer { scratch.remove() }
    await #expect(throws: TransferError.self) {
      try await archive.export(to: scratch.url, contentType: nil)
    }
  }

  @Test func exportFailedNamesTheExportersError() async throws {
    let error = await #expect(throws: TransferError.self) {
      try await Broken().exported(as: .json)
    }
    #expect(error?.code == .exportFailed)
    #expect(error?.underlyingError is BrokenError)
    #expect(
      error?.description
        == "cannot export Broken as public.json: the representation's exporter failed: the disk is full"
    )
  }

  @Test func syncProxyThatThrowsWhileListingIsLeftOutAndReported() async throws {
    #expect(UnlistableProxy.exportedContentTypes() == [.utf8PlainText, .plainText])
    #expect(UnlistableProxy().exportedContentTypes() == [])
    let error = await #expect(throws: TransferError.self) {
      try await UnlistableProxy().exported(as: .plainText)
    }
    #expect(error?.code == .exportFailed)
    #expect(error.map { "\($0)" }?.hasSuffix("no name yet") == true)
  }

  @Test func importFailedNamesTheImportersError() async throws {
    let error = await #expect(throws: TransferError.self) {
      try await ProfilesArchive(
        importing: Data("name,bio\nJuan\n".utf8), contentType: .commaSeparatedText)
    }
    #expect(error?.code == .importFailed)
    #expect(error?.direction == .import)
    #expect(error?.typeName == "ProfilesArchive")
    #expect(error?.contentType == .commaSeparatedText)
    #expect(error?.underlyingError as? CSVError == .fieldCount(line: 2, count: 1))
    #expect(
      error?.description
        == "cannot import ProfilesArchive from public.comma-separated-values-text: the representation's importer failed: line 2 has 1 fields, expected 2"
    )
  }

  @Test func importWithoutContentTypeReportsTheFirstFailure() async throws {
    let error = await #expect(throws: TransferError.self) {
      try await Broken(importing: Data("{}".utf8), contentType: nil)
    }
    #expect(error?.code == .importFailed)
    #expect(error?.contentType == nil)
    #expect(
      error?.description
        == "cannot import Broken: the representation's importer failed: the checksum does not match"
    )
  }

  @Test func codeMatchesInCatchClauses() async throws {
    var caught = ""
    do {
      _ = try await Broken().exported(as: .json)
    } catch TransferError.Code.importFailed {
      caught = "import"
    } catch TransferError.Code.exportFailed {
      caught = "export"
    }
    #expect(caught == "export")
    #expect((TransferError.Code.noSuchRepresentation ~= BrokenError(reason: "")) == false)
  }

  @Test func localizedDescriptionIsTheMessage() async throws {
    let error = await #expect(throws: TransferError.self) {
      try await Broken().exported(as: .json)
    }
    #expect(error?.localizedDescription == error?.description)
  }

  @Test func cancellationIsNotWrapped() async throws {
    let task = Task { () async throws -> Data in
      withUnsafeCurrentTask { $0?.cancel() }
      return try await CancellationAware().exported(as: .data)
    }
    await #expect(throws: CancellationError.self) { try await task.value }
  }

  @Test func cancelledFileCopyLeavesNoPartialFile() async throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let original = try scratch.file("clip.mp4", contents: Data(repeating: 1, count: 1 << 20))
    let destination = scratch.url.appendingPathComponent("out", isDirectory: true)
    try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
    let task = Task { () async throws -> URL in
      withUnsafeCurrentTask { $0?.cancel() }
      return try await Video(url: original).export(to: destination, contentType: .mpeg4Movie)
    }
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(try FileManager.default.contentsOfDirectory(atPath: destination.path) == [])
  }
}

/// Stops when its task is cancelled.
struct CancellationAware: Transferable {
  static var transferRepresentation: some TransferRepresentation {
    DataRepresentation(exportedContentType: .data) { (_: CancellationAware) in
      try Task.checkCancellation()
      return Data()
    }
  }
}
