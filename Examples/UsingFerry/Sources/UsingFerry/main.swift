// A typed copy in a package of one's own: a `Profile` declared and made `Transferable` as on
// Apple's platforms, put on a pasteboard, and read back as its JSON and as text.

import CoreTransferable
import Foundation
import Pasteboard
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

let board = Pasteboard(name: "using-ferry")
board.write(Profile(name: "Juan Chavez", bio: "Ceramicist"))
print(board.types.map(\.identifier).prefix(2).joined(separator: " "))
print(String(decoding: try await board.data(for: .utf8PlainText), as: UTF8.self))
let profile = try JSONDecoder().decode(Profile.self, from: try await board.data(for: .profile))
print(profile.bio)
