// Teaches the broker the `Profile` type from Swift code: its declaration and a conversion to
// plain text (the profile's name), so a profile any program copies — not only one copied
// from Swift with its text proxy — pastes as its name in a terminal.
//
//   swift run --package-path Examples RegisterProfileType
//   ferry copy --type com.example.profile juan.json && pbpaste      # Juan Chavez
//
// The broker keeps the registration across restarts (docs/CONVERTERS.md).

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

/// The declaration file the broker reads: the type as `UTType.profile` declares it, and the
/// conversion `Profile`'s text proxy makes (its `name` field), for copies that lack the proxy.
func declaration() throws -> Data {
  let type = UTType.profile
  let object: [String: Any] = [
    "UTExportedTypeDeclarations": [
      [
        "UTTypeIdentifier": type.identifier,
        "UTTypeConformsTo": type.supertypes.contains(.json) ? ["public.json"] : ["public.data"],
        "UTTypeDescription": "Profile",
        "UTTypeTagSpecification": ["public.filename-extension": ["profile"]],
      ]
    ],
    "FerryConversions": [
      ["from": type.identifier, "to": UTType.utf8PlainText.identifier, "jsonField": "name"]
    ],
  ]
  return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
}

/// Registers the declaration; returns the broker's problems with it (none when it took it).
func register() throws(BrokerClientError) -> [String] {
  let contents: Data
  do { contents = try declaration() } catch {
    throw BrokerClientError(code: .invalidDeclaration, message: "\(error)")
  }
  let client = try BrokerClient.connect(clientName: "RegisterProfileType")
  return try client.register(
    declarationNamed: "profile.json", contents: contents, allowExampleNamespace: true)
}

do {
  let problems = try register()
  problems.forEach { FileHandle.standardError.write(Data("RegisterProfileType: \($0)\n".utf8)) }
  print("registered \(UTType.profile.identifier) → \(UTType.utf8PlainText.identifier) (its name)")
  exit(problems.isEmpty ? 0 : 5)
} catch {
  FileHandle.standardError.write(Data("RegisterProfileType: \(error)\n".utf8))
  exit(error.code == .noBroker ? 3 : 6)
}
