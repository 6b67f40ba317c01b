import CoreTransferable
import FerrySystem
import Foundation
import Testing
import UniformTypeIdentifiers

/// Counts the runs of its exporters, to show that listing produces nothing.
struct Lazy: Transferable {
  static let exports = TrackedMutex(0)

  static var transferRepresentation: some TransferRepresentation {
    DataRepresentation(exportedContentType: .json) { (_: Lazy) in
      Lazy.exports.withLock { $0 += 1 }
      return Data("{}".utf8)
    }
  }
}

@Suite("Pasteboard-facing API")
struct PackageAPITests {
  @Test func exportsAreOrderedTypedAndLazy() async throws {
    let before = Lazy.exports.withLock { $0 }
    let exports = Lazy().transferExports()
    #expect(exports.map(\.contentType) == [.json])
    #expect(Lazy.exports.withLock { $0 } == before)
    _ = try await exports[0].data()
    #expect(Lazy.exports.withLock { $0 } == before + 1)
  }

  @Test func exportsDescribeTheirRepresentation() throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let video = Video(url: try scratch.file("clip.mp4", contents: Data("m".utf8)))
    let exports = video.transferExports()
    #expect(exports.map(\.contentType) == [.mpeg4Movie, .fileURL, .url])
    #expect(exports.map(\.isFileBacked) == [true, false, false])
    #expect(exports.allSatisfy { $0.typeName == "Video" && $0.visibility == .all })
  }

  @Test func importersAreOrderedAndAcceptEitherForm() async throws {
    let importers = URL.transferImporters()
    #expect(importers.map(\.contentType) == [.fileURL, .url])
    #expect(importers.allSatisfy { !$0.isFileBacked })

    let scratch = try Scratch()
    defer { scratch.remove() }
    let file = try scratch.file("link.txt", contents: Data("https://swift.org".utf8))
    let fromFile = try await importers[1].importing(file: file, allowsOpeningInPlace: false)
    #expect(fromFile == URL(string: "https://swift.org"))

    let videoImporter = try #require(Video.transferImporters().first)
    #expect(videoImporter.isFileBacked && !videoImporter.attemptsOpeningInPlace)
    let video = try await videoImporter.importing(Data("bytes".utf8), contentType: .mpeg4Movie)
    #expect(try Data(contentsOf: video.url) == Data("bytes".utf8))
    #expect(video.url.pathExtension == "mp4")
    try? FileManager.default.removeItem(at: video.url.deletingLastPathComponent())
  }

  @Test func importerTakesAnExport() async throws {
    let profile = Profile(name: "Mei", bio: "pilot")
    let export = try #require(profile.transferExport(accepting: [.profile]))
    let importer = try #require(Profile.transferImporters().first)
    #expect(try await importer.importing(export) == profile)
  }
}
