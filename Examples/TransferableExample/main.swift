// The examples of Apple's WWDC22 "Meet Transferable", run on Linux.
//
//   swift run --package-path Examples TransferableExample
//
// Each section prints the content types a value offers, in order, and what receivers that
// support different types get from it.

import CoreTransferable
import Foundation
import UniformTypeIdentifiers

// MARK: - The talk's types

extension UTType {
  static let profile = UTType(exportedAs: "com.example.profile", conformingTo: .json)
}

struct Profile: Codable {
  var id = UUID()
  var name: String
  var bio: String
  var funFacts: [String] = []
}

extension Profile: Transferable {
  static var transferRepresentation: some TransferRepresentation {
    CodableRepresentation(contentType: .profile)
    ProxyRepresentation(exporting: \.name)
  }
}

struct ProfilesArchive {
  var profiles: [Profile]

  init(profiles: [Profile]) { self.profiles = profiles }

  init(csvData: Data) throws {
    let lines = String(decoding: csvData, as: UTF8.self).split(separator: "\n").dropFirst()
    profiles = try lines.map { line in
      let fields = line.split(separator: ",", omittingEmptySubsequences: false)
      guard fields.count == 2 else { throw ArchiveError(line: String(line)) }
      return Profile(name: String(fields[0]), bio: String(fields[1]))
    }
  }

  /// This small writer does not quote, so fields with commas or line breaks rule CSV out.
  var supportsCSV: Bool {
    profiles.allSatisfy { !"\($0.name)\($0.bio)".contains(where: { $0 == "," || $0.isNewline }) }
  }

  func convertToCSV() throws -> Data {
    Data((["name,bio"] + profiles.map { "\($0.name),\($0.bio)" }).joined(separator: "\n").utf8)
  }
}

struct ArchiveError: Error, CustomStringConvertible {
  let line: String
  var description: String { "\"\(line)\" is not a name,bio row" }
}

extension ProfilesArchive: Transferable {
  static var transferRepresentation: some TransferRepresentation {
    DataRepresentation(contentType: .commaSeparatedText) { archive in
      try archive.convertToCSV()
    } importing: { data in
      try ProfilesArchive(csvData: data)
    }
    .exportingCondition { archive in archive.supportsCSV }
    .suggestedFileName("Profiles.csv")
  }
}

struct Video: Transferable {
  let url: URL

  static var transferRepresentation: some TransferRepresentation {
    FileRepresentation(contentType: .mpeg4Movie) { video in
      SentTransferredFile(video.url)
    } importing: { received in
      let copy = library.appendingPathComponent(received.file.lastPathComponent)
      try? FileManager.default.removeItem(at: copy)
      try FileManager.default.copyItem(at: received.file, to: copy)
      return Self(url: copy)
    }
    ProxyRepresentation(exporting: \.url)
  }

  /// Where received videos go.
  static let library = workspace.appendingPathComponent("Library", isDirectory: true)
}

/// This run's own folder, removed at the end.
let workspace = FileManager.default.temporaryDirectory
  .appendingPathComponent("TransferableExample-\(getpid())", isDirectory: true)

extension Video {
  /// Where the sender keeps its videos.
  static let cameraRoll = workspace.appendingPathComponent("Camera Roll", isDirectory: true)
}

// MARK: - Receivers

/// A receiver that supports some content types takes the first type the value offers that
/// conforms to one of them, as a paste or a drop does.
func receive(_ value: some Transferable, acceptingAnyOf supported: [UTType]) async -> String {
  let offered = value.exportedContentTypes()
  guard let type = offered.first(where: { type in supported.contains { type.conforms(to: $0) } })
  else {
    return "nothing (offered \(offered.map(\.identifier)))"
  }
  do {
    let data = try await value.exported(as: type)
    return "\(type.identifier): \(String(decoding: data.prefix(120), as: UTF8.self))"
  } catch {
    return "error: \(error)"
  }
}

func section(_ title: String) {
  print("\n== \(title)")
}

// MARK: - Profile: the order of representations decides

section("Profile")
let juan = Profile(name: "Juan Chavez", bio: "Ballroom dancer", funFacts: ["juggles"])
print("offers:", juan.exportedContentTypes().map(\.identifier))
print("a receiver that knows profiles gets ", await receive(juan, acceptingAnyOf: [.profile]))
print("a text-only receiver gets           ", await receive(juan, acceptingAnyOf: [.plainText]))
print(
  "a receiver of both gets             ",
  await receive(juan, acceptingAnyOf: [.profile, .plainText]))

let json = try await juan.exported(as: .profile)
let copy = try await Profile(importing: json, contentType: .profile)
print("imported back from its JSON:", copy.name, "/", copy.bio, "/", copy.funFacts)

// MARK: - ProfilesArchive: an exporting condition, evaluated per value

section("ProfilesArchive")
let archive = ProfilesArchive(profiles: [juan, Profile(name: "Mei", bio: "Pilot")])
print("offers:", archive.exportedContentTypes().map(\.identifier))
print("a spreadsheet receiver gets", await receive(archive, acceptingAnyOf: [.commaSeparatedText]))
print("suggested file name:", archive.suggestedFilename ?? "none")

let quoted = ProfilesArchive(profiles: [Profile(name: "Chavez, Juan", bio: "Dancer")])
print("an archive that needs quoting offers:", quoted.exportedContentTypes().map(\.identifier))
do {
  _ = try await quoted.exported(as: .commaSeparatedText)
} catch {
  print("exporting it as CSV fails:", error)
}
do {
  _ = try await ProfilesArchive(
    importing: Data("name,bio\nJuan\n".utf8), contentType: .commaSeparatedText)
} catch {
  print("importing malformed CSV fails:", error)
}

// MARK: - Video: a file that is never read into memory, and its URL as a proxy

section("Video")
for folder in [Video.cameraRoll, Video.library] {
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
}
defer { try? FileManager.default.removeItem(at: workspace) }
let original = Video.cameraRoll.appendingPathComponent("Dance Recital.mp4")
try Data(repeating: 0x2A, count: 4 << 20).write(to: original)
let video = Video(url: original)
print("offers:", video.exportedContentTypes().map(\.identifier))
print("a receiver of URLs gets", await receive(video, acceptingAnyOf: [.url]))

let outbox = workspace.appendingPathComponent("Outbox", isDirectory: true)
try FileManager.default.createDirectory(at: outbox, withIntermediateDirectories: true)
let sent = try await video.export(to: outbox, contentType: .mpeg4Movie)
print("a receiver of movies gets a copy:", sent.path)
let received = try await Video(importing: sent, contentType: .mpeg4Movie)
let size = try FileManager.default.attributesOfItem(atPath: received.url.path)[.size] as? Int ?? 0
print("and imports it as a Video of \(size) bytes at", received.url.path)
print("the sender's file is untouched:", FileManager.default.fileExists(atPath: original.path))
