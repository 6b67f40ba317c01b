// Copies a `Profile` — the example of Apple's "Meet Transferable" — to the broker from Swift
// code: its own JSON type first, its name as text after it, in the order its
// `transferRepresentation` declares. Every X application can then paste it: a terminal gets
// the name, a profile-aware program the JSON.
//
//   swift run --package-path Examples ProfileCopy "Juan Chavez" "Ceramicist and teacher"
//
// Scripts/demo runs it.

import CoreTransferable
import FerryClient
import Foundation
import UniformTypeIdentifiers

extension UTType {
  static let profile = UTType(exportedAs: "com.example.profile", conformingTo: .json)
}

struct Profile: Codable, Transferable {
  var name: String
  var bio: String

  static var transferRepresentation: some TransferRepresentation {
    CodableRepresentation(contentType: .profile)
    ProxyRepresentation(exporting: \.name)
  }
}

let arguments = CommandLine.arguments.dropFirst()
let profile = Profile(
  name: arguments.first ?? "Juan Chavez", bio: arguments.dropFirst().first ?? "Ceramicist")

var representations: [BrokerClient.Representation] = []
for type in profile.exportedContentTypes() {
  representations.append(.data(try await profile.exported(as: type), type: type.identifier))
}
do {
  let client = try BrokerClient.connect(clientName: "ProfileCopy")
  let count = try client.write(representations)
  print(
    "copied \(profile.name) as \(representations.map(\.type).joined(separator: ", ")) (change \(count))"
  )
} catch {
  // One line, and 3 when no broker runs, as `ferry` says it (README.md, "Exit status").
  FileHandle.standardError.write(Data("ProfileCopy: \(error)\n".utf8))
  exit(error.code == .noBroker ? 3 : 6)
}
