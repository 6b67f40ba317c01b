import CoreTransferable
import Foundation
import UniformTypeIdentifiers

// The examples of Apple's WWDC22 "Meet Transferable", as the talk wrote them.

extension UTType {
  /// The talk's own exported type: a profile as JSON.
  static let profile = UTType(exportedAs: "com.example.profile", conformingTo: .json)
}

/// A person's profile: JSON for receivers that know profiles, the name for everyone else.
struct Profile: Codable, Equatable {
  var id: UUID
  var name: String
  var bio: String
  var funFacts: [String]

  init(id: UUID = UUID(), name: String, bio: String, funFacts: [String] = []) {
    self.id = id
    self.name = name
    self.bio = bio
    self.funFacts = funFacts
  }
}

extension Profile: Transferable {
  static var transferRepresentation: some TransferRepresentation {
    CodableRepresentation(contentType: .profile)
    ProxyRepresentation(exporting: \.name)
  }
}

/// A set of profiles that travels as CSV, when its fields fit this small CSV writer.
struct ProfilesArchive: Equatable {
  var profiles: [Profile]

  init(profiles: [Profile]) {
    self.profiles = profiles
  }

  /// Reads `name,bio` rows after a header line.
  init(csvData: Data) throws {
    guard let text = String(data: csvData, encoding: .utf8) else { throw CSVError.notUTF8 }
    var lines = text.split(separator: "\n", omittingEmptySubsequences: true)
    guard lines.first == "name,bio" else { throw CSVError.missingHeader }
    lines.removeFirst()
    profiles = try lines.enumerated().map { index, line in
      let fields = line.split(separator: ",", omittingEmptySubsequences: false)
      guard fields.count == 2 else {
        throw CSVError.fieldCount(line: index + 2, count: fields.count)
      }
      return Profile(name: String(fields[0]), bio: String(fields[1]))
    }
  }

  /// Whether every field can be written without quoting.
  var supportsCSV: Bool {
    profiles.allSatisfy { profile in
      [profile.name, profile.bio].allSatisfy { field in
        !field.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline })
      }
    }
  }

  func convertToCSV() throws -> Data {
    guard supportsCSV else { throw CSVError.unquotableField }
    let rows = profiles.map { "\($0.name),\($0.bio)" }
    return Data((["name,bio"] + rows).joined(separator: "\n").utf8 + [UInt8(ascii: "\n")])
  }

  /// Equal when the names and bios are: CSV does not carry identifiers.
  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.profiles.map { [$0.name, $0.bio] } == rhs.profiles.map { [$0.name, $0.bio] }
  }
}

enum CSVError: Error, CustomStringConvertible, Equatable {
  case notUTF8, missingHeader, unquotableField
  case fieldCount(line: Int, count: Int)

  var description: String {
    switch self {
    case .notUTF8: "the CSV is not UTF-8"
    case .missingHeader: "the CSV has no name,bio header"
    case .unquotableField: "a field holds a comma, a quote or a line break"
    case .fieldCount(let line, let count): "line \(line) has \(count) fields, expected 2"
    }
  }
}

extension ProfilesArchive: Transferable {
  static var transferRepresentation: some TransferRepresentation {
    DataRepresentation(contentType: .commaSeparatedText) { archive in
      try archive.convertToCSV()
    } importing: { data in
      try ProfilesArchive(csvData: data)
    }
    .exportingCondition { archive in archive.supportsCSV }
  }
}

/// A movie file: the file itself for receivers that take MPEG-4, its URL for the rest.
struct Video: Transferable {
  let url: URL

  static var transferRepresentation: some TransferRepresentation {
    FileRepresentation(contentType: .mpeg4Movie) { video in
      SentTransferredFile(video.url)
    } importing: { received in
      let copy = try Video.newLibraryFolder().appendingPathComponent(
        received.file.lastPathComponent)
      try FileManager.default.copyItem(at: received.file, to: copy)
      return Self(url: copy)
    }
    ProxyRepresentation(exporting: \.url)
  }

  /// Where an imported video goes: a fresh folder per import, which the test removes.
  static func newLibraryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("CoreTransferableTests-Video-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }
}
