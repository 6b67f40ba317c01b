import CoreTransferable
import FerrySystem
import Foundation
import Testing
import UniformTypeIdentifiers

/// A tag that travels as its text both ways.
struct Tag: Equatable, Transferable {
  var name: String

  static var transferRepresentation: some TransferRepresentation {
    ProxyRepresentation(exporting: \.name, importing: { Tag(name: $0) })
  }
}

/// A bookmark: imports from a URL asynchronously, exports its URL synchronously.
struct Bookmark: Equatable, Transferable {
  var url: URL

  static var transferRepresentation: some TransferRepresentation {
    ProxyRepresentation(exporting: \.url) { (url: URL) async throws -> Bookmark in
      await Task.yield()
      return Bookmark(url: url)
    }
  }
}

/// Imports only, from text.
struct Hashtag: Equatable, Transferable {
  var text: String

  static var transferRepresentation: some TransferRepresentation {
    ProxyRepresentation(importing: { (text: String) throws -> Hashtag in
      guard text.hasPrefix("#") else { throw HashtagError.missingHash }
      return Hashtag(text: text)
    })
  }
}

enum HashtagError: Error { case missingHash }

/// Counts how often its proxy exporter runs.
struct CountedProxy: Transferable {
  static let calls = TrackedMutex(0)
  var value: String

  static var transferRepresentation: some TransferRepresentation {
    ProxyRepresentation { (item: CountedProxy) in
      CountedProxy.calls.withLock { $0 += 1 }
      return item.value
    }
  }
}

/// Exports through an asynchronous proxy (deprecated on Apple's platforms, still supported).
struct AsyncExported: Transferable {
  var archive: ProfilesArchive

  @available(*, deprecated, message: "exercises the deprecated asynchronous proxy exporter")
  static var transferRepresentation: some TransferRepresentation {
    ProxyRepresentation(exporting: { (item: AsyncExported) async throws -> ProfilesArchive in
      await Task.yield()
      return item.archive
    })
  }
}

@Suite("ProxyRepresentation")
struct ProxyRepresentationTests {
  @Test func proxyTypesExpandInPlace() {
    #expect(Tag.exportedContentTypes() == [.utf8PlainText, .plainText])
    #expect(Tag.importedContentTypes() == [.utf8PlainText, .plainText])
    #expect(Bookmark(url: URL(string: "https://swift.org")!).exportedContentTypes() == [.url])
    #expect(Bookmark(url: URL(fileURLWithPath: "/tmp")).exportedContentTypes() == [.fileURL, .url])
  }

  @Test func exportsAndImportsThroughTheProxy() async throws {
    #expect(text(try await Tag(name: "swift").exported(as: .utf8PlainText)) == "swift")
    #expect(
      try await Tag(importing: Data("linux".utf8), contentType: .plainText) == Tag(name: "linux"))
  }

  @Test func asynchronousImporter() async throws {
    let bookmark = try await Bookmark(importing: Data("https://swift.org".utf8), contentType: .url)
    #expect(bookmark == Bookmark(url: URL(string: "https://swift.org")!))
    #expect(try await bookmark.transferred(as: Bookmark.self) == bookmark)
  }

  @Test func importOnlyProxy() async throws {
    #expect(Hashtag.exportedContentTypes().isEmpty)
    #expect(
      try await Hashtag(importing: Data("#swift".utf8), contentType: .utf8PlainText)
        == Hashtag(text: "#swift"))
    let error = await #expect(throws: TransferError.self) {
      try await Hashtag(importing: Data("swift".utf8), contentType: .utf8PlainText)
    }
    #expect(error?.code == .importFailed)
    #expect(error?.underlyingError as? HashtagError == .missingHash)
    #expect(try await Tag(name: "#ferry").transferred(as: Hashtag.self) == Hashtag(text: "#ferry"))
  }

  @Test func proxysExportingConditionsApplyToTheProxyValue() async throws {
    let fits = AsyncExported(
      archive: ProfilesArchive(profiles: [Profile(name: "Mei", bio: "pilot")]))
    let unfit = AsyncExported(archive: ProfilesArchive(profiles: [Profile(name: "a,b", bio: "")]))
    #expect(text(try await fits.exported(as: .commaSeparatedText)) == "name,bio\nMei,pilot\n")
    // An asynchronous proxy is only known when exporting, so its type stays listed, and the
    // condition fails the export itself.
    #expect(unfit.exportedContentTypes() == [.commaSeparatedText])
    let error = await #expect(throws: TransferError.self) {
      try await unfit.exported(as: .commaSeparatedText)
    }
    #expect(error?.code == .exportingConditionFalse)
  }

  @Test func synchronousProxyExporterRunsWhenListingAndNotBefore() async throws {
    let before = CountedProxy.calls.withLock { $0 }
    let value = CountedProxy(value: "x")
    _ = CountedProxy.exportedContentTypes()
    #expect(CountedProxy.calls.withLock { $0 } == before, "type-level lists do not export")
    #expect(value.exportedContentTypes() == [.utf8PlainText, .plainText])
    #expect(CountedProxy.calls.withLock { $0 } > before)
  }
}
