import CoreTransferable
import Foundation
import Pasteboard
import Testing
import UniformTypeIdentifiers

extension UTType {
  /// The profile type of Apple's "Meet Transferable" example.
  static let testProfile = UTType(exportedAs: "com.example.profile", conformingTo: .json)
}

/// The profile of Apple's "Meet Transferable" example: its own JSON type first, its name as
/// text after it.
struct Profile: Codable, Equatable, Transferable {
  var name: String
  var bio: String

  static var transferRepresentation: some TransferRepresentation {
    CodableRepresentation(contentType: .testProfile)
    ProxyRepresentation(exporting: \.name)
  }
}

/// A pasteboard of its own with a registry of its own, so tests running in parallel never
/// share state.
func isolatedPasteboard(_ label: String = #function, registering: [any PasteboardConverter] = [])
  -> Pasteboard
{
  let registry = ConverterRegistry()
  for converter in registering { registry.register(converter) }
  return Pasteboard(
    name: Pasteboard.Name(rawValue: "test-\(label)-\(UUID().uuidString)"), converters: registry)
}

/// Text of UTF-8 bytes.
func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }
