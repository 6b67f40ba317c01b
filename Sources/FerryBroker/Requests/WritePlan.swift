import FerryProtocol
import Pasteboard
import UniformTypeIdentifiers

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A `write` request, checked before its data is read.
struct WritePlan {
  /// The pasteboard written.
  var pasteboard: Pasteboard.Name
  /// The representations' types, richest first.
  var types: [UTType]
  /// How the item may be kept and shown.
  var options: PasteboardItem.Options
  /// When the item stops being served.
  var expires: Date?
  /// Whether the item must never touch the disk: it is concealed, or carries a marker that
  /// may conceal it once its value is known.
  var inMemoryOnly: Bool

  /// Checks `request`.
  ///
  /// - Throws: A refusal (the connection goes on): `badRequest` for a bad pasteboard name, no
  ///   representations, a type listed twice or an `expires` that is no number; `unknownType`.
  init(_ request: WriteRequest) throws(ProtocolFailure) {
    pasteboard = try BrokerRequestHandler.pasteboardName(request.pasteboard)
    guard !request.representations.isEmpty else {
      throw .refusal(
        .badRequest, "a write needs at least one representation (to empty a pasteboard, use clear)")
    }
    var types: [UTType] = []
    for representation in request.representations {
      let type = try BrokerRequestHandler.type(named: representation.type)
      guard !types.contains(type) else {
        throw .refusal(.badRequest, "the type \(type.identifier) is listed twice")
      }
      types.append(type)
    }
    self.types = types
    var options: PasteboardItem.Options = []
    for option in request.options ?? [] {
      switch option {
      case .concealed: options.insert(.concealed)
      case .transient: options.insert(.transient)
      case .currentHostOnly: options.insert(.currentHostOnly)
      }
    }
    self.options = options
    if let seconds = request.expires {
      guard seconds.isFinite else {
        throw .refusal(.badRequest, "expires is not a number of seconds")
      }
      expires = Date(timeIntervalSince1970: seconds)
    }
    inMemoryOnly =
      options.contains(.concealed)
      || types.contains { $0 == .concealedMarker || $0 == .passwordManagerHint }
  }
}
