import FerrySystem
import FerryTestSupport
import Foundation
import Testing

@testable import UniformTypeIdentifiers

/// Desktop packages that add MIME package files to shared-mime-info's own: real files, kept in
/// Tests/Fixtures/MIMEPackages (its README says where each came from).
enum DesktopMIMEPackages: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case freedesktopOnly, libreOffice, kde, gnome, all

  /// The package files of Tests/Fixtures/MIMEPackages this set puts beside freedesktop.org.xml.
  var files: [String] {
    switch self {
    case .freedesktopOnly: []
    case .libreOffice: ["libreoffice.xml"]
    case .kde: ["kde5.xml"]
    case .gnome: ["sysprof-mime.xml"]
    case .all: ["libreoffice.xml", "kde5.xml", "sysprof-mime.xml"]
    }
  }

  var testDescription: String {
    switch self {
    case .freedesktopOnly: "freedesktop.org.xml alone"
    case .libreOffice: "with LibreOffice's"
    case .kde: "with KDE's"
    case .gnome: "with GNOME's (Sysprof)"
    case .all: "with LibreOffice's, KDE's and GNOME's"
    }
  }

  /// shared-mime-info's own package file, which every database starts from.
  static let freedesktop = "/usr/share/mime/packages/freedesktop.org.xml"
  /// The program that compiles package files into a database.
  static let compiler = "/usr/bin/update-mime-database"
  static var canBuild: Bool {
    FileManager.default.fileExists(atPath: freedesktop)
      && FileManager.default.isExecutableFile(atPath: compiler)
  }

  /// Compiles freedesktop.org.xml and this set's files into `directory/name/mime` with
  /// `update-mime-database`, and returns that `mime` directory.
  func build(in directory: String, name: String? = nil) async throws -> String {
    let mime = directory + "/" + (name ?? rawValue) + "/mime"
    let packages = mime + "/packages"
    let fixtures = repositoryRoot.appendingPathComponent("Tests/Fixtures/MIMEPackages").path
    try FileManager.default.createDirectory(atPath: packages, withIntermediateDirectories: true)
    for source in [Self.freedesktop] + files.map({ fixtures + "/" + $0 }) {
      try FileManager.default.copyItem(
        atPath: source, toPath: packages + "/" + (source as NSString).lastPathComponent)
    }
    // Without an fsync per file: the directory is thrown away after the test.
    let result = try await DetachedThread.run {
      try PeerProcess.run(
        [Self.compiler, mime], display: nil, timeout: .seconds(60),
        environment: ["PKGSYSTEM_ENABLE_FSYNC": "0"])
    }
    try #require(
      result.status == 0,
      "update-mime-database \(mime) exited \(result.status): \(result.stderrText)")
    return mime
  }
}

/// The shared-mime-info bridge on databases assembled from real packages: freedesktop.org.xml,
/// then LibreOffice's, KDE's and GNOME's files beside it. A lookup answers the same whichever
/// packages added MIME files (docs/TYPES.md, "The shared-mime-info bridge").
@Suite(
  "MIME databases of desktop packages",
  .enabled(
    if: DesktopMIMEPackages.canBuild,
    "needs shared-mime-info (freedesktop.org.xml and update-mime-database)"))
struct MIMEPackageDatabaseTests {
  /// Every MIME type freedesktop.org.xml names, as a type or an alias, finds the same type with
  /// the packages' files beside it; and every system type keeps every tag it had.
  @Test(arguments: DesktopMIMEPackages.allCases.filter { $0 != .freedesktopOnly })
  func everyMIMETypeAnswersAsWithFreedesktopAlone(_ packages: DesktopMIMEPackages) async throws {
    try await withTemporaryDirectory { directory in
      let baseDirectory = try await DesktopMIMEPackages.freedesktopOnly.build(in: directory)
      let base = privateRegistry(mimeDirectories: [baseDirectory])
      let registry = privateRegistry(mimeDirectories: [try await packages.build(in: directory)])
      var names: [String] = lines("types", in: baseDirectory)
      for line in lines("aliases", in: baseDirectory) {
        names += line.split(separator: " ").map(String.init)
      }
      var checked = 0
      for name in names {
        let expected = try #require(
          base.preferredIdentifier(name, .mimeType), "\(name) has a type")
        #expect(registry.preferredIdentifier(name, .mimeType) == expected, "\(name)")
        checked += 1
      }
      #expect(checked > 1000)
      for key in SystemTypeTable.catalog.records.keys {
        let before = base.tags(ofKey: key, includingMIMEDatabase: true)
        let after = registry.tags(ofKey: key, includingMIMEDatabase: true)
        for (tagClass, tags) in before {
          let kept = Set(
            (after[tagClass] ?? []).map { TagNormalization.normalize($0, in: tagClass) })
          for tag in tags where !kept.contains(TagNormalization.normalize(tag, in: tagClass)) {
            Issue.record("\(key) lost its tag \(tag)")
          }
        }
      }
    }
  }

  /// Every MIME type a type lists among its tags finds that type, unless a system type
  /// declares that MIME type itself (Apple has `public.heic` beside `public.heif`, where the
  /// database calls `image/heic` an alias of `image/heif`).
  @Test(arguments: DesktopMIMEPackages.allCases)
  func everyMIMETagOfATypeFindsThatType(_ packages: DesktopMIMEPackages) async throws {
    try await withTemporaryDirectory { directory in
      let registry = privateRegistry(mimeDirectories: [try await packages.build(in: directory)])
      let records =
        Array(SystemTypeTable.catalog.records.values)
        + Array(registry.overlay(loading: .mimeDatabase).records.values)
      var checked = 0
      for record in records {
        for tag in registry.tags(ofKey: record.key, includingMIMEDatabase: true)[.mimeType] ?? [] {
          let found = registry.preferredRecord(tag: tag, tagClass: .mimeType, conformingTo: nil)
          if found?.key == record.key { continue }
          let normalized = TagNormalization.normalizeMIMEType(tag)
          let declaredBySystem =
            found.map { found in
              found.layer == .system
                && (found.tags[.mimeType] ?? []).map(TagNormalization.normalizeMIMEType)
                  .contains(normalized)
            } ?? false
          #expect(
            declaredBySystem,
            "\(record.identifier) lists \(tag), which finds \(found?.identifier ?? "nothing")")
        }
        checked += 1
      }
      #expect(checked > 800)
    }
  }

  /// LibreOffice declares `application/vnd.ms-word` as a type of its own, which
  /// freedesktop.org.xml lists as an alias of `application/msword`: it stays Apple's Word
  /// document, and `application/vnd.sun.xml.base` stays OpenDocument's database.
  @Test func libreOfficesOwnTypesThatAreAliasesStayTheirAliases() async throws {
    try await withTemporaryDirectory { directory in
      let mime = try await DesktopMIMEPackages.libreOffice.build(in: directory)
      try #require(lines("types", in: mime).contains("application/vnd.ms-word"))
      try #require(
        lines("aliases", in: mime).contains("application/vnd.ms-word application/msword"))
      let registry = privateRegistry(mimeDirectories: [mime])
      #expect(
        registry.preferredIdentifier("application/vnd.ms-word", .mimeType)
          == "com.microsoft.word.doc")
      #expect(registry.record("org.freedesktop.mime.application.vnd.ms-word") == nil)
      #expect(registry.preferredIdentifier("doc", .filenameExtension) == "com.microsoft.word.doc")
      let tags = registry.tags(ofKey: "com.microsoft.word.doc", includingMIMEDatabase: true)
      #expect(tags[.mimeType]?.first == "application/msword")
      #expect(tags[.mimeType]?.contains("application/vnd.ms-word") == true)
      #expect(
        registry.preferredIdentifier("application/vnd.sun.xml.base", .mimeType)
          == "org.freedesktop.mime.application.vnd.oasis.opendocument.database")
      #expect(registry.record("org.freedesktop.mime.application.vnd.sun.xml.base") == nil)
      // A type only LibreOffice declares is a type of its own.
      #expect(
        registry.preferredIdentifier(
          "application/vnd.oasis.opendocument.text-master-template", .mimeType)
          == "org.freedesktop.mime.application.vnd.oasis.opendocument.text-master-template")
    }
  }

  /// The lines of a compiled database file, without comments.
  func lines(_ name: String, in directory: String) -> [String] {
    let text = (try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
  }
}
